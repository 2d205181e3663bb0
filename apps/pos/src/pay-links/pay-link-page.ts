/** The link's public page under the gateway's public base URL: `<public_url>/l/<id>`. */
export function payLinkPageUrl(publicUrl: string, id: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/l/${id}`;
}
