// A file's size as people read it, in the back office's lists and beside a
// lesson's downloads: '340 KB', '12.5 MB', '1.2 GB'.

const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;

export function fileSize(bytes: number): string {
  if (bytes >= GB) return `${(bytes / GB).toFixed(1)} GB`;
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / KB))} KB`;
}
