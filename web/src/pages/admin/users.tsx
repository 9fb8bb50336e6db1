// Users: search and page through every account with their effective level (a temporary role marked); a chosen one
// opens in a dialog over the list, where the admin is looking, and closing it returns to the list.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { UserRecord } from '../../api.ts';
import { Notice } from '../../components.tsx';
import { dateTime, t, useT } from '../../i18n.ts';
import { navigate } from '../../router.tsx';
import { Table, usePagedList } from '../../table.tsx';
import { plainMessage, UserLink } from './names.tsx';
import { DiscordCell } from '../discord-account.tsx';
import { UserEditor } from './user-editor.tsx';
import { levelName } from './words.ts';

/** The level a user acts at, and where a role grant raises it, that it does and until when. */
function LevelText(props: { user: Pick<UserRecord, 'perms' | 'level' | 'role_grant'> }) {
  const level = props.user.level ?? props.user.perms;
  const grant = props.user.role_grant;
  const raised = grant?.active && level === grant.role_level && level > props.user.perms;
  return (
    <>
      {level === -1 ? <strong class="danger">{levelName(-1)}</strong> : levelName(level)}
      {raised && (
        <>
          {' '}
          <span class="temporary">
            {grant.expired_at === null ? t('admin:users.byRole') : t('admin:users.temporaryUntil', { date: dateTime(grant.expired_at) })}
          </span>
        </>
      )}
    </>
  );
}

export function UsersSection(props: { level: number; editing: string | null }) {
  const t = useT();
  const [search, setSearch] = useState('');
  const list = usePagedList<UserRecord>('/api/admin/users', { search });
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">{t('admin:users.heading')}</h2>
      {props.editing && (
        <EditorDialog onClose={() => navigate('/admin?tab=users')}>
          <UserEditor key={props.editing} identifier={props.editing} level={props.level} onSaved={list.reload} />
        </EditorDialog>
      )}
      <div class="field">
        <label for="user-search">{t('admin:users.search')}</label>
        <input id="user-search" type="search" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
      </div>
      {list.error && <Notice kind="error">{plainMessage(list.error)}</Notice>}
      {list.rows?.length === 0 ? (
        <p class="muted">{t('admin:users.nobody')}</p>
      ) : (
        <Table
          headers={[
            t('admin:users.name'),
            t('admin:users.mail'),
            t('admin:users.level'),
            t('admin:users.confirmed'),
            t('admin:users.discord'),
          ]}
          rows={list.rows}
          cells={(user) => [
            user.username ? <UserLink id={user.id} name={user.username} /> : <span class="muted">{t('admin:users.unfinished')}</span>,
            user.mail,
            <LevelText user={user} />,
            user.mail_verify ? t('admin:users.yes') : t('admin:users.no'),
            <DiscordCell discord={user.discord} />,
          ]}
        />
      )}
      {list.pager}
    </section>
  );
}

/** A modal dialog over the list: Escape or the close button leave it, and the focus returns to the page. */
function EditorDialog(props: { onClose: () => void; children: preact.ComponentChildren }) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current!;
    if (!element.open) element.showModal();
    return () => element.open && element.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      class="user-dialog"
      aria-labelledby="user-editor-heading"
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
      // Escape inside a question in the dialog (a confirmation, the rename field) cancels only that question, which
      // handles the key itself; elsewhere it closes the dialog.
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        if (!(event.target as Element).closest('[role=alertdialog], form.rename')) props.onClose();
      }}
    >
      <button type="button" class="secondary small close" onClick={props.onClose}>
        {t('admin:users.close')}
      </button>
      {props.children}
    </dialog>
  );
}
