// A file chosen in a form, as the admin API takes it: JSON with the bytes
// in base64 (every write to the API is JSON, decision 009).

/** The file's bytes as base64, without the data URL's prefix. */
export function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result.replace(/^data:[^,]*,/, '') : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}
