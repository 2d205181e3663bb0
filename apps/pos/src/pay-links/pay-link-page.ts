/** The link's public page under the gateway's public base URL: `<public_url>/l/<id>`. */
export function payLinkPageUrl(publicUrl: string, id: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/l/${id}`;
}

/** The QR code of the link's page, served by the gateway: `<public_url>/api/v1/pay-links/<id>/qr`. */
export function payLinkQrUrl(publicUrl: string, id: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/api/v1/pay-links/${id}/qr`;
}
