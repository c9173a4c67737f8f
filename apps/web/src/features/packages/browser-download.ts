/**
 * Hands a granted URL to the browser's own download: a link clicked for the person. The grant
 * answers with Content-Disposition: attachment, so the page stays where it is.
 */
export function startBrowserDownload(url: string, filename: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}
