import type { FormBody, HttpRequest } from '../core/ports';

/**
 * The FormData a browser client sends for a form body: the fields first, in order, then the
 * files, as Swift's FormPost reads them. fetch and XHR write the multipart boundary themselves.
 */
export function formDataOf(form: FormBody): FormData {
  const data = new FormData();
  for (const [name, value] of form.fields) data.append(name, value);
  for (const file of form.files) data.append(file.field, file.content, file.filename);
  return data;
}

/**
 * A request body as fetch and XHR both send it, and the content type to announce when the
 * caller set none (a form's is written by the browser, with its boundary).
 */
export function encodedBody(body: HttpRequest['body']): {
  body?: Blob | FormData | string;
  contentType?: string;
} {
  if (body === undefined) return {};
  if (body instanceof Blob) return { body };
  if ('json' in body) return { body: JSON.stringify(body.json), contentType: 'application/json' };
  return { body: formDataOf(body) };
}
