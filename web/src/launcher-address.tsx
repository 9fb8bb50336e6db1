// The game login's address for launchers, on the profile and on the front page: a link to drag into a launcher
// (authlib-injector's launcher specification) and the address to copy.
import { useState } from 'preact/hooks';
import { CopyField } from './components.tsx';
import { t } from './i18n.ts';

/** The game login's address as a link to drag into a launcher (authlib-injector's launcher specification) and as text. */
export function LauncherAddress(props: { apiRoot: string }) {
  const [hint, setHint] = useState('');
  const dragData = `authlib-injector:yggdrasil-server:${encodeURIComponent(props.apiRoot)}`;
  return (
    <>
      <p>{t('game.drag')}</p>
      <p>
        <a
          class="drag-link"
          href={dragData}
          draggable
          onDragStart={(event) => {
            const transfer = event.dataTransfer;
            if (!transfer) return;
            transfer.setData('text/plain', dragData);
            transfer.effectAllowed = 'copy';
            transfer.dropEffect = 'copy';
          }}
          onClick={(event) => {
            // Launchers take it by drag and drop; opening it in the browser leads nowhere.
            event.preventDefault();
            setHint(t('game.dragHint'));
          }}
        >
          {t('game.link', { host: new URL(props.apiRoot).host })}
        </a>
      </p>
      <small role="status" aria-live="polite">
        {hint}
      </small>
      <CopyField label={t('game.address')} value={props.apiRoot} />
    </>
  );
}
