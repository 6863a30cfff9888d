import { useState } from 'react';

/**
 * A frame whose page answers clicks only once its scripts have run takes
 * no input until its load event, which comes after them: a click before
 * would do nothing, or navigate the frame itself. `key` names the page
 * loaded (a new address, a reload); each new one is inert again until it
 * has loaded.
 */
export function useFrameReady(key: string): { inert: boolean; onLoad: () => void } {
  const [loaded, setLoaded] = useState<string | null>(null);
  return { inert: loaded !== key, onLoad: () => setLoaded(key) };
}
