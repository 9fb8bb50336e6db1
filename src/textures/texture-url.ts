// The address of a texture file (served by images/routes.ts at /textures/{digest}). Content-addressed: the game caches
// a texture by its URL's last segment, and a changed picture is another address.
export const textureUrl = (publicUrl: string, digest: string) => `${publicUrl}/textures/${digest}`;
