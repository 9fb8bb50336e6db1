// The 3D preview, drawn by skinview3d (three.js): the skin with its model and the cape, turned by dragging.
// `data-skin` and `data-cape` on the frame say what it shows once the textures are loaded.
// skinview3d is imported when a preview is first shown: three.js is most of the app's bytes, and the login and
// registration pages would otherwise download it for nothing (Vite puts it in a chunk of its own).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SkinViewer } from 'skinview3d';

export function SkinPreview(props: { skinUrl: string; slim: boolean | null; capeUrl: string | null; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [viewer, setViewer] = useState<SkinViewer | null>(null);
  const [shown, setShown] = useState<{ skin: string; cape: string } | null>(null);
  const [facingBack, setFacingBack] = useState(false);

  useEffect(() => {
    let created: SkinViewer | null = null;
    let unmounted = false;
    void import('skinview3d').then(({ SkinViewer }) => {
      if (unmounted) return;
      created = new SkinViewer({ canvas: canvas.current!, width: 260, height: 340 });
      created.zoom = 0.85;
      setViewer(created);
    });
    return () => {
      unmounted = true;
      created?.dispose();
    };
  }, []);

  useEffect(() => {
    if (!viewer) return;
    let cancelled = false;
    setShown(null);
    const model = props.slim === null ? 'auto-detect' : props.slim ? 'slim' : 'default';
    Promise.all([
      viewer.loadSkin(props.skinUrl, { model }),
      props.capeUrl ? viewer.loadCape(props.capeUrl) : Promise.resolve(viewer.resetCape()),
    ]).then(
      () => !cancelled && setShown({ skin: props.skinUrl, cape: props.capeUrl ?? '' }),
      () => !cancelled && setShown({ skin: '', cape: '' }),
    );
    return () => {
      cancelled = true;
    };
  }, [viewer, props.skinUrl, props.slim, props.capeUrl]);

  useEffect(() => {
    if (viewer) viewer.playerObject.rotation.y = facingBack ? Math.PI - 0.5 : -0.5;
  }, [viewer, facingBack]);

  return (
    <figure class="preview" data-skin={shown?.skin} data-cape={shown?.cape}>
      <canvas ref={canvas} width={260} height={340} aria-label={props.label} />
      <figcaption>
        <button type="button" class="secondary" onClick={() => setFacingBack(!facingBack)}>
          {facingBack ? 'Show front' : 'Show back'}
        </button>
      </figcaption>
    </figure>
  );
}
