// The 3D preview, drawn by skinview3d (three.js): the skin with its model and the cape, walking unless paused, turned
// by dragging or by the arrow keys while the canvas has the focus, zoomed by the buttons, the wheel or + and -.
// `data-skin` and `data-cape` on the frame say what it shows once the textures are loaded.
// skinview3d is imported when a preview is first shown: three.js is most of the app's bytes, and the login and
// registration pages would otherwise download it for nothing (Vite puts it in a chunk of its own).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SkinViewer } from 'skinview3d';
import { t } from './i18n.ts';
import './viewer.css';

const MIN_ZOOM = 0.5;
const MAX_ZOOM = 2;
const ZOOM_STEP = 1.2;
/** One arrow key press turns the player by 15 degrees. */
const TURN_STEP = Math.PI / 12;
/** Facing a little to the side, so that the model looks three-dimensional at first sight. */
const FRONT = -0.5;
/** Width and height of the canvas: the frame's width, from a phone's to a wide screen's, at a figure's proportions. */
const MIN_WIDTH = 220;
const MAX_WIDTH = 420;
const ASPECT = 1.3;

/** Draws the scene once when the frame loop is paused (the loop draws it otherwise). */
const redraw = (viewer: SkinViewer) => viewer.renderPaused && viewer.render();

const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
const prefersReducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

export function SkinPreview(props: {
  skinUrl: string;
  slim: boolean | null;
  capeUrl: string | null;
  label: string;
  /** Shown under the canvas: what the preview shows when it is not what the player wears. */
  caption?: ComponentChildren;
  /** Offers a switch that shows the cape as an elytra instead (when there is a cape). */
  elytraToggle?: boolean;
}) {
  const frame = useRef<HTMLElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [viewer, setViewer] = useState<SkinViewer | null>(null);
  const [shown, setShown] = useState<{ skin: string; cape: string; back: 'cape' | 'elytra' } | null>(null);
  const [elytra, setElytra] = useState(false);
  const [elytraId] = useState(() => `preview-elytra-${Math.random().toString(36).slice(2)}`);
  const back = props.elytraToggle && props.capeUrl && elytra ? 'elytra' : 'cape';
  const [angle, setAngle] = useState(FRONT);
  const [zoom, setZoom] = useState(0.85);
  // Paused from the start for people who asked their system for less motion.
  const [paused, setPaused] = useState(prefersReducedMotion);
  /** Whether the canvas is on the screen: scrolled away, it is not drawn at all. */
  const [onScreen, setOnScreen] = useState(true);
  const [hintId] = useState(() => `preview-hint-${Math.random().toString(36).slice(2)}`);

  useEffect(() => {
    let created: SkinViewer | null = null;
    let unmounted = false;
    let resize: ResizeObserver | null = null;
    void import('skinview3d').then(({ SkinViewer, WalkingAnimation }) => {
      if (unmounted) return;
      created = new SkinViewer({ canvas: canvas.current!, width: 260, height: 340 });
      created.controls.enableZoom = false; // the wheel goes through our own zoom, which the buttons share
      const viewerNow = created;
      // While paused nothing is drawn frame by frame (no work for a still picture): each change draws once.
      created.controls.addEventListener('change', () => redraw(viewerNow));
      const walking = new WalkingAnimation();
      walking.speed = 0.6;
      created.animation = walking;
      const fit = () => {
        const width = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, (frame.current?.clientWidth ?? 280) - 16)));
        viewerNow.setSize(width, Math.round(width * ASPECT));
        redraw(viewerNow);
      };
      fit();
      resize = new ResizeObserver(fit);
      resize.observe(frame.current!);
      setViewer(created);
    });
    return () => {
      unmounted = true;
      resize?.disconnect();
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
      props.capeUrl ? viewer.loadCape(props.capeUrl, { backEquipment: back }) : Promise.resolve(viewer.resetCape()),
    ]).then(
      () => {
        if (cancelled) return;
        redraw(viewer);
        setShown({ skin: props.skinUrl, cape: props.capeUrl ?? '', back });
      },
      () => !cancelled && setShown({ skin: '', cape: '', back }),
    );
    return () => {
      cancelled = true;
    };
  }, [viewer, props.skinUrl, props.slim, props.capeUrl, back]);

  useEffect(() => {
    if (!viewer) return;
    viewer.playerObject.rotation.y = angle;
    redraw(viewer);
  }, [viewer, angle]);
  useEffect(() => {
    if (!viewer) return;
    viewer.zoom = zoom;
    redraw(viewer);
  }, [viewer, zoom]);
  useEffect(() => {
    if (!viewer) return;
    if (viewer.animation) viewer.animation.paused = paused;
    viewer.renderPaused = paused || !onScreen;
    redraw(viewer);
  }, [viewer, paused, onScreen]);
  useEffect(() => {
    const observer = new IntersectionObserver(([entry]) => setOnScreen(entry?.isIntersecting ?? true));
    observer.observe(canvas.current!);
    return () => observer.disconnect();
  }, []);

  // The wheel zooms the preview, not the page; passive: false, so that the page does not scroll as well.
  useEffect(() => {
    const element = canvas.current!;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      setZoom((current) => clampZoom(event.deltaY < 0 ? current * ZOOM_STEP : current / ZOOM_STEP));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, []);

  const facingBack = Math.cos(angle - FRONT) < 0;
  const onKeyDown = (event: KeyboardEvent) => {
    const turns: Record<string, number> = { ArrowLeft: -TURN_STEP, ArrowRight: TURN_STEP };
    if (event.key in turns) setAngle((current) => current + turns[event.key]!);
    else if (event.key === '+' || event.key === '=') setZoom((current) => clampZoom(current * ZOOM_STEP));
    else if (event.key === '-') setZoom((current) => clampZoom(current / ZOOM_STEP));
    else if (event.key === 'Home') setAngle(FRONT);
    else return;
    event.preventDefault();
  };

  return (
    <figure
      class="preview"
      ref={frame}
      data-skin={shown?.skin}
      data-cape={shown?.cape}
      data-back={shown?.cape ? shown.back : undefined}
      data-paused={String(paused)}
    >
      <canvas
        ref={canvas}
        width={260}
        height={340}
        tabIndex={0}
        role="img"
        aria-label={props.label}
        aria-describedby={hintId}
        onKeyDown={onKeyDown}
      />
      <figcaption>
        {props.caption}
        <small id={hintId}>{t('preview.hint')}</small>
        {props.elytraToggle && props.capeUrl && (
          <label class="check" for={elytraId}>
            <input
              id={elytraId}
              type="checkbox"
              checked={elytra}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setElytra(checked);
                // An elytra is seen from behind: turn the player round to show it.
                if (checked) setAngle(Math.PI + FRONT);
              }}
            />
            {t('previewExtra.elytra')}
          </label>
        )}
        <div class="actions preview-controls">
          <button type="button" class="secondary" onClick={() => setPaused(!paused)}>
            {paused ? t('preview.play') : t('preview.pause')}
          </button>
          <button type="button" class="secondary" onClick={() => setAngle(facingBack ? FRONT : Math.PI + FRONT)}>
            {facingBack ? t('preview.front') : t('preview.back')}
          </button>
          <button
            type="button"
            class="secondary"
            aria-label={t('preview.zoomIn')}
            disabled={zoom >= MAX_ZOOM}
            onClick={() => setZoom(clampZoom(zoom * ZOOM_STEP))}
          >
            +
          </button>
          <button
            type="button"
            class="secondary"
            aria-label={t('preview.zoomOut')}
            disabled={zoom <= MIN_ZOOM}
            onClick={() => setZoom(clampZoom(zoom / ZOOM_STEP))}
          >
            −
          </button>
        </div>
      </figcaption>
    </figure>
  );
}
