// Apart from title.tsx (which reads i18next) so that the signed-out app names its pages the same way.
export function pageTitle(productName: string, page: string | null): string {
  return page ? `${productName} | ${page}` : productName;
}
