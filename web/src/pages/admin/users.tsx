// Users: search and page through every account with their effective level (a temporary role marked); a chosen one
// opens in a dialog over the list, where the admin is looking, and closing it returns to the list.
import { useEffect, useRef, useState } from 'preact/hooks';
import { LEVEL_NAMES, type UserRecord } from '../../api.ts';
import { Notice } from '../../components.tsx';
import { navigate } from '../../router.tsx';
import { Table, usePagedList } from '../../table.tsx';
import { plainMessage, UserLink } from './names.tsx';
import { DiscordCell } from '../discord.tsx';
import { UserEditor } from './user-editor.tsx';

/** The level a user acts at, and where a role grant raises it, that it does and until when. */
export function LevelText(props: { user: Pick<UserRecord, 'perms' | 'level' | 'role_grant'> }) {
  const level = props.user.level ?? props.user.perms;
  const grant = props.user.role_grant;
  const raised = grant?.active && level === grant.role_level && level > props.user.perms;
  return (
    <>
      {level === -1 ? <strong class="danger">banned</strong> : (LEVEL_NAMES[level] ?? level)}
      {raised && (
        <>
          {' '}
          <span class="temporary">
            {grant.expired_at === null ? 'by role' : `temporary, until ${new Date(grant.expired_at * 1000).toLocaleString()}`}
          </span>
        </>
      )}
    </>
  );
}

export function UsersSection(props: { level: number; editing: string | null }) {
  const [search, setSearch] = useState('');
  const list = usePagedList<UserRecord>('/api/admin/users', { search });
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">Users</h2>
      {props.editing && (
        <EditorDialog onClose={() => navigate('/admin?tab=users')}>
          <UserEditor key={props.editing} identifier={props.editing} level={props.level} onSaved={list.reload} />
        </EditorDialog>
      )}
      <div class="field">
        <label for="user-search">Search by username or mail</label>
        <input id="user-search" type="search" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
      </div>
      {list.error && <Notice kind="error">{plainMessage(list.error)}</Notice>}
      {list.rows?.length === 0 ? (
        <p class="muted">Nobody matches.</p>
      ) : (
        <Table
          headers={['Name', 'Mail', 'Level', 'Mail confirmed', 'Discord']}
          rows={list.rows}
          cells={(user) => [
            user.username ? <UserLink id={user.id} name={user.username} /> : <span class="muted">(registration unfinished)</span>,
            user.mail,
            <LevelText user={user} />,
            user.mail_verify ? 'yes' : 'no',
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
        Close
      </button>
      {props.children}
    </dialog>
  );
}
