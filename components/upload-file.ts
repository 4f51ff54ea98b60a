/**
 * PUTs one file to /api/uploads as the raw body and resolves with its upload id. XMLHttpRequest rather than
 * fetch: the browser streams the File from disk and reports upload progress.
 */
export function uploadFile(file: File, onProgress: (loaded: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `/api/uploads?name=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      const body = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300 && body?.uploadId) {
        onProgress(file.size);
        resolve(body.uploadId);
      } else {
        reject(new Error(`Upload of ${file.name} failed: ${body?.error ?? `${xhr.status} ${xhr.statusText}`}`));
      }
    };
    xhr.onerror = () => reject(new Error(`Upload of ${file.name} failed: the connection was lost`));
    xhr.send(file);
  });
}

function parse(text: string): { uploadId?: string; error?: string } | null {
  try {
    return JSON.parse(text) as { uploadId?: string; error?: string };
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
    return null;
  }
}
