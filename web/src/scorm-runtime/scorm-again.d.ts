import type { Scorm12API as Api12, Scorm2004API as Api2004 } from 'scorm-again';

// scorm-again's per-edition builds export their API by name, as the package's
// own index does, though their type files say a default export.
declare module 'scorm-again/scorm12' {
  export const Scorm12API: typeof Api12;
}
declare module 'scorm-again/scorm2004' {
  export const Scorm2004API: typeof Api2004;
}
