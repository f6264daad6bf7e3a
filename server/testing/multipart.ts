/** Builds a multipart/form-data body with one file, for upload tests through `inject`. */
export function multipartFile(field: string, filename: string, contentType: string, data: Buffer) {
  const boundary = `----limelight${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
