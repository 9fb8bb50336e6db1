// The 3D preview, drawn by skinview3d (three.js): the skin with its model and the cape, turned by dragging.
// `data-skin` and `data-cape` on the frame say what it shows once the textures are loaded.
import { useEffect, useRef, useState } from 'preact/hooks';
import { SkinViewer } from 'skinview3d';

export function SkinPreview(props: { skinUrl: string; slim: boolean | null; capeUrl: string | null; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const viewer = useRef<SkinViewer | null>(null);
  const [shown, setShown] = useState<{ skin: string; cape: string } | null>(null);
  const [facingBack, setFacingBack] = useState(false);

  useEffect(() => {
    const created = new SkinViewer({ canvas: canvas.current!, width: 260, height: 340 });
    created.zoom = 0.85;
    created.playerObject.rotation.y = -0.5;
    viewer.current = created;
    return () => created.dispose();
  }, []);

  useEffect(() => {
    const current = viewer.current!;
    let cancelled = false;
    setShown(null);
    const model = props.slim === null ? 'auto-detect' : props.slim ? 'slim' : 'default';
    Promise.all([
      current.loadSkin(props.skinUrl, { model }),
      props.capeUrl ? current.loadCape(props.capeUrl) : Promise.resolve(current.resetCape()),
    ]).then(
      () => !cancelled && setShown({ skin: props.skinUrl, cape: props.capeUrl ?? '' }),
      () => !cancelled && setShown({ skin: '', cape: '' }),
    );
    return () => {
      cancelled = true;
    };
  }, [props.skinUrl, props.slim, props.capeUrl]);

  useEffect(() => {
    if (viewer.current) viewer.current.playerObject.rotation.y = facingBack ? Math.PI - 0.5 : -0.5;
  }, [facingBack]);

  return (
    <figure class="preview" data-skin={shown?.skin} data-cape={shown?.cape}>
      <canvas ref={canvas} aria-label={props.label} />
      <figcaption>
        <button type="button" class="secondary" onClick={() => setFacingBack(!facingBack)}>
          {facingBack ? 'Show front' : 'Show back'}
        </button>
      </figcaption>
    </figure>
  );
}
