import type { FormBody } from '../core/ports';

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
