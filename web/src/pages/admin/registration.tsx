// Registration control (issue 14, item 10): who may create an account (owners switch it for every instance at
// once), invitation links (admins make them, each shown once, single use, expiring) and the list to withdraw them.
import { useEffect, useState } from 'preact/hooks';
import type { InviteRecord, NewInvite, RegistrationModeName, RegistrationState } from '../../../../src/http/shapes/registration.ts';
import { api, LEVELS } from '../../api.ts';
import { Confirmation, CopyField, Notice, messageOf, useAction } from '../../components.tsx';
import { Link } from '../../router.tsx';
import { Table, usePagedList } from '../../table.tsx';
import './console-overview.css';

export const MODE_WORDS: Record<RegistrationModeName, { short: string; long: string }> = {
  open: { short: 'Open', long: 'Anyone may create an account.' },
  invite: { short: 'By invitation', long: 'Only people with an invitation link may create an account.' },
  closed: { short: 'Closed', long: 'Nobody may create an account.' },
};
const MODES: RegistrationModeName[] = ['open', 'invite', 'closed'];
const LIFETIMES = [
  { days: 1, label: '1 day' },
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
];

const date = (seconds: number) =>
  new Date(seconds * 1000).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

function statusText(invite: InviteRecord) {
  switch (invite.status) {
    case 'usable':
      return `Can be used until ${date(invite.expires_at)}`;
    case 'used':
      return (
        <>
          Used {invite.used_at !== null && `on ${date(invite.used_at)}`} by{' '}
          {invite.used_by ? <Link href={`/admin?tab=users&user=${invite.used_by.id}`}>{invite.used_by.name}</Link> : 'a deleted account'}
        </>
      );
    case 'expired':
      return `Expired on ${date(invite.expires_at)}`;
    case 'revoked':
      return `Withdrawn${invite.revoked_at !== null ? ` on ${date(invite.revoked_at)}` : ''}`;
  }
}

export function RegistrationSection(props: { level: number }) {
  const [version, setVersion] = useState(0);
  return (
    <section aria-label="Registration">
      <ModeCard level={props.level} />
      {props.level >= LEVELS.admin && <NewInviteCard created={() => setVersion(version + 1)} />}
      <InviteList level={props.level} version={version} />
    </section>
  );
}

function ModeCard(props: { level: number }) {
  const [state, setState] = useState<RegistrationState | null>(null);
  const [choice, setChoice] = useState<RegistrationModeName>('open');
  const [failure, setFailure] = useState<string | null>(null);
  const action = useAction();
  useEffect(() => {
    api.get<RegistrationState>('/api/admin/registration').then(
      (reply) => {
        setState(reply.data);
        setChoice(reply.data.mode);
      },
      (error) => setFailure(messageOf(error)),
    );
  }, []);
  const save = (mode: RegistrationModeName | null) =>
    void action.run(async () => {
      const reply = await api.put<RegistrationState>('/api/admin/registration', { mode });
      setState(reply.data);
      setChoice(reply.data.mode);
      return mode === null
        ? `Registration follows the REGISTRATION setting again: ${MODE_WORDS[reply.data.mode].short.toLowerCase()}.`
        : `Registration is now ${MODE_WORDS[reply.data.mode].short.toLowerCase()}.`;
    });
  const isOwner = props.level >= LEVELS.owner;
  return (
    <section class="card" aria-labelledby="registration-mode">
      <h2 id="registration-mode">Who may create an account</h2>
      {failure && <Notice kind="error">{failure}</Notice>}
      {state && (
        <>
          <p>
            Now: <strong>{MODE_WORDS[state.mode].short}</strong>. {MODE_WORDS[state.mode].long}
          </p>
          <p class="muted">
            {state.chosen === null
              ? `This is the REGISTRATION setting of the server.`
              : `Chosen here${state.changed_by ? ` by ${state.changed_by}` : ''}${
                  state.changed_at !== null ? ` on ${date(state.changed_at)}` : ''
                }; the server's REGISTRATION setting says ${MODE_WORDS[state.setting].short.toLowerCase()}.`}
          </p>
          {isOwner ? (
            <form
              class="form"
              onSubmit={(event) => {
                event.preventDefault();
                save(choice);
              }}
            >
              <fieldset class="modes">
                <legend>Registration</legend>
                {MODES.map((mode) => (
                  <label key={mode}>
                    <input type="radio" name="registration-mode" value={mode} checked={choice === mode} onChange={() => setChoice(mode)} />
                    <span>
                      <strong>{MODE_WORDS[mode].short}</strong>: {MODE_WORDS[mode].long}
                    </span>
                  </label>
                ))}
              </fieldset>
              <div class="actions">
                <button type="submit" disabled={action.busy}>
                  Save for every server
                </button>
                {state.chosen !== null && (
                  <button type="button" class="secondary" disabled={action.busy} onClick={() => save(null)}>
                    Follow the server setting again
                  </button>
                )}
              </div>
            </form>
          ) : (
            <p class="muted">Owners change this.</p>
          )}
          {action.outcome}
        </>
      )}
    </section>
  );
}

function NewInviteCard(props: { created: () => void }) {
  const [note, setNote] = useState('');
  const [days, setDays] = useState(7);
  const [made, setMade] = useState<NewInvite | null>(null);
  const action = useAction();
  return (
    <section class="card" aria-labelledby="new-invite">
      <h2 id="new-invite">Invite someone</h2>
      <p class="muted">An invitation link makes one account, until it expires. Send it to the person yourself.</p>
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            setMade(null);
            const reply = await api.post<NewInvite>('/api/admin/invites', { note, days });
            setMade(reply.data);
            setNote('');
            props.created();
          });
        }}
      >
        <div class="fields">
          <div class="field">
            <label for="invite-note">Who it is for (optional)</label>
            <input id="invite-note" maxLength={200} value={note} onInput={(event) => setNote(event.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="invite-days">Valid for</label>
            <select id="invite-days" value={String(days)} onChange={(event) => setDays(Number(event.currentTarget.value))}>
              {LIFETIMES.map((lifetime) => (
                <option key={lifetime.days} value={String(lifetime.days)}>
                  {lifetime.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" disabled={action.busy}>
          Create invitation link
        </button>
      </form>
      {action.outcome}
      {made && (
        <div class="card invite-link">
          <CopyField label="Invitation link" value={made.link} />
          <p class="muted">This link is shown only now: copy it and send it. It works once, until {date(made.invite.expires_at)}.</p>
        </div>
      )}
    </section>
  );
}

function InviteList(props: { level: number; version: number }) {
  const list = usePagedList<InviteRecord>('/api/admin/invites', { version: props.version });
  const action = useAction();
  const [asking, setAsking] = useState<InviteRecord | null>(null);
  const canRevoke = props.level >= LEVELS.admin;
  const revoke = (invite: InviteRecord) => {
    setAsking(null);
    void action.run(async () => {
      await api.delete(`/api/admin/invites/${invite.id}`);
      list.reload();
      return `The invitation${invite.note ? ` “${invite.note}”` : ''} is withdrawn: its link no longer works.`;
    });
  };
  return (
    <section class="card" aria-labelledby="invite-list">
      <h2 id="invite-list">Invitations</h2>
      {list.error && <Notice kind="error">{list.error}</Notice>}
      {action.outcome}
      {asking && (
        <Confirmation
          key={asking.id}
          confirmLabel="Withdraw the invitation"
          danger
          onConfirm={() => revoke(asking)}
          onCancel={() => setAsking(null)}
        >
          Withdraw the invitation{asking.note ? ` “${asking.note}”` : ''}? Its link then refuses to make an account. This cannot be undone.
        </Confirmation>
      )}
      {list.rows?.length === 0 ? (
        <p class="muted">No invitations yet.</p>
      ) : (
        <>
          <Table
            headers={['Who it is for', 'State', 'Made by', 'Made', ...(canRevoke ? ['Action'] : [])]}
            rows={list.rows}
            cells={(invite) => [
              invite.note || <span class="muted">no note</span>,
              statusText(invite),
              invite.created_by || <span class="muted">a deleted account</span>,
              date(invite.created_at),
              ...(canRevoke
                ? [
                    invite.status === 'usable' ? (
                      <button type="button" class="danger" disabled={action.busy} onClick={() => setAsking(invite)}>
                        Withdraw
                      </button>
                    ) : (
                      ''
                    ),
                  ]
                : []),
            ]}
          />
          {list.pager}
        </>
      )}
    </section>
  );
}
