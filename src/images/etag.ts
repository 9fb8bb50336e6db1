// ETags of images (contract section 7): an image's ETag is made of what it shows, so a request's If-None-Match is
// compared without the image itself (a revalidation of an image not in the cache is answered without drawing it).

/** Whether an If-None-Match header names this ETag (weak or strong), or is `*`. */
export function matchesEtag(header: string | undefined, etag: string) {
  return (
    header !== undefined && header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag || candidate.trim() === '*')
  );
}
