// Registration control (issue 14, item 10): who may create an account (owners switch it for every instance at
// once), invitation links (admins make them, each shown once, single use, expiring) and the list to withdraw them.
import { useEffect, useState } from 'preact/hooks';
import type { InviteRecord, NewInvite, RegistrationModeName, RegistrationState } from '../../../../src/http/shapes/registration.ts';
import { api } from '../../api.ts';
import { LEVELS } from '../../../../src/shared/levels.ts';
import { CopyField, Notice, messageOf, useAction } from '../../components.tsx';
import { Confirmation } from '../../editing.tsx';
import { dateTime, Rich, t, useT } from '../../i18n.ts';
import { Table, usePagedList } from '../../table.tsx';
import { UserLink } from './names.tsx';
import './console-overview.css';

/** A registration mode in words: its short name ("Open") and what it means. */
export const modeWords = (mode: RegistrationModeName): { short: string; long: string } => ({
  short: t(`admin:registration.${mode}`),
  long: t(`admin:registration.${mode}Long`),
});
const MODES: RegistrationModeName[] = ['open', 'invite', 'closed'];
const LIFETIMES = [1, 7, 30, 90];

function statusText(invite: InviteRecord) {
  switch (invite.status) {
    case 'usable':
      return t('admin:registration.usableUntil', { date: dateTime(invite.expires_at) });
    case 'used':
      return (
        <Rich
          text={
            invite.used_at !== null
              ? t('admin:registration.usedBy', { date: dateTime(invite.used_at) })
              : t('admin:registration.usedByUndated')
          }
          parts={{
            who: () =>
              invite.used_by ? (
                // An account the API names with neither username nor mail keeps its (empty) link, as before.
                <UserLink id={invite.used_by.id} name={invite.used_by.name} unnamed="" />
              ) : (
                t('admin:registration.deletedAccount')
              ),
          }}
        />
      );
    case 'expired':
      return t('admin:registration.expiredOn', { date: dateTime(invite.expires_at) });
    case 'revoked':
      return invite.revoked_at !== null
        ? t('admin:registration.withdrawnOn', { date: dateTime(invite.revoked_at) })
        : t('admin:registration.withdrawn');
  }
}

export function RegistrationSection(props: { level: number }) {
  const t = useT();
  // Here, not in the list: a new invitation reloads it from its first page, where the invitation shows.
  const invites = usePagedList<InviteRecord>('/api/admin/invites', {});
  return (
    <section aria-label={t('admin:registration.label')}>
      <ModeCard level={props.level} />
      {props.level >= LEVELS.admin && <NewInviteCard created={invites.reloadFromStart} />}
      <InviteList level={props.level} list={invites} />
    </section>
  );
}

function ModeCard(props: { level: number }) {
  const t = useT();
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
      const now = modeWords(reply.data.mode).short.toLowerCase();
      return mode === null ? t('admin:registration.followsSetting', { mode: now }) : t('admin:registration.nowMode', { mode: now });
    });
  const isOwner = props.level >= LEVELS.owner;
  return (
    <section class="card" aria-labelledby="registration-mode">
      <h2 id="registration-mode">{t('admin:registration.heading')}</h2>
      {failure && <Notice kind="error">{failure}</Notice>}
      {state && (
        <>
          <p>
            {t('admin:registration.now')} <strong>{modeWords(state.mode).short}</strong>. {modeWords(state.mode).long}
          </p>
          <p class="muted">
            {state.chosen === null
              ? t('admin:registration.fromSetting')
              : t(
                  `admin:registration.${state.changed_by ? (state.changed_at !== null ? 'chosenByOn' : 'chosenBy') : state.changed_at !== null ? 'chosenOn' : 'chosen'}`,
                  {
                    name: state.changed_by ?? undefined,
                    date: state.changed_at !== null ? dateTime(state.changed_at) : undefined,
                    setting: modeWords(state.setting).short.toLowerCase(),
                  },
                )}
          </p>
          {isOwner ? (
            <form
              class="form"
              onSubmit={(event) => {
                event.preventDefault();
                save(choice);
              }}
            >
              <fieldset class="radio-list modes">
                <legend>{t('admin:registration.legend')}</legend>
                {MODES.map((mode) => (
                  <label key={mode}>
                    <input type="radio" name="registration-mode" value={mode} checked={choice === mode} onChange={() => setChoice(mode)} />
                    <span>
                      <strong>{modeWords(mode).short}</strong>: {modeWords(mode).long}
                    </span>
                  </label>
                ))}
              </fieldset>
              <div class="actions">
                <button type="submit" disabled={action.busy}>
                  {t('admin:registration.save')}
                </button>
                {state.chosen !== null && (
                  <button type="button" class="secondary" disabled={action.busy} onClick={() => save(null)}>
                    {t('admin:registration.follow')}
                  </button>
                )}
              </div>
            </form>
          ) : (
            <p class="muted">{t('admin:registration.ownersChange')}</p>
          )}
          {action.outcome}
        </>
      )}
    </section>
  );
}

function NewInviteCard(props: { created: () => void }) {
  const t = useT();
  const [note, setNote] = useState('');
  const [days, setDays] = useState(7);
  const [made, setMade] = useState<NewInvite | null>(null);
  const action = useAction();
  return (
    <section class="card" aria-labelledby="new-invite">
      <h2 id="new-invite">{t('admin:registration.inviteHeading')}</h2>
      <p class="muted">{t('admin:registration.inviteIntro')}</p>
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
            <label for="invite-note">{t('admin:registration.note')}</label>
            <input id="invite-note" maxLength={200} value={note} onInput={(event) => setNote(event.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="invite-days">{t('admin:registration.validFor')}</label>
            <select id="invite-days" value={String(days)} onChange={(event) => setDays(Number(event.currentTarget.value))}>
              {LIFETIMES.map((lifetime) => (
                <option key={lifetime} value={String(lifetime)}>
                  {t('admin:registration.days', { count: lifetime })}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" disabled={action.busy}>
          {t('admin:registration.create')}
        </button>
      </form>
      {action.outcome}
      {made && (
        <div class="card invite-link">
          <CopyField label={t('admin:registration.link')} value={made.link} />
          <p class="muted">{t('admin:registration.shownOnce', { date: dateTime(made.invite.expires_at) })}</p>
        </div>
      )}
    </section>
  );
}

function InviteList(props: { level: number; list: ReturnType<typeof usePagedList<InviteRecord>> }) {
  const t = useT();
  const { list } = props;
  const action = useAction();
  const [asking, setAsking] = useState<InviteRecord | null>(null);
  const canRevoke = props.level >= LEVELS.admin;
  const revoke = (invite: InviteRecord) => {
    setAsking(null);
    void action.run(async () => {
      await api.delete(`/api/admin/invites/${invite.id}`);
      list.reload();
      return invite.note ? t('admin:registration.withdrawnNoteDone', { note: invite.note }) : t('admin:registration.withdrawnDone');
    });
  };
  return (
    <section class="card" aria-labelledby="invite-list">
      <h2 id="invite-list">{t('admin:registration.listHeading')}</h2>
      {list.error && <Notice kind="error">{list.error}</Notice>}
      {action.outcome}
      {asking && (
        <Confirmation
          key={asking.id}
          confirmLabel={t('admin:registration.withdrawInvitation')}
          danger
          onConfirm={() => revoke(asking)}
          onCancel={() => setAsking(null)}
        >
          {asking.note ? t('admin:registration.withdrawNoteQuestion', { note: asking.note }) : t('admin:registration.withdrawQuestion')}
        </Confirmation>
      )}
      {list.rows?.length === 0 ? (
        <p class="muted">{t('admin:registration.noInvitations')}</p>
      ) : (
        <>
          <Table
            headers={[
              t('admin:registration.forWhom'),
              t('admin:registration.state'),
              t('admin:registration.madeBy'),
              t('admin:registration.made'),
              ...(canRevoke ? [t('admin:registration.action')] : []),
            ]}
            rows={list.rows}
            cells={(invite) => [
              invite.note || <span class="muted">{t('admin:registration.noNote')}</span>,
              statusText(invite),
              invite.created_by || <span class="muted">{t('admin:registration.deletedAccount')}</span>,
              dateTime(invite.created_at),
              ...(canRevoke
                ? [
                    invite.status === 'usable' ? (
                      <button type="button" class="danger" disabled={action.busy} onClick={() => setAsking(invite)}>
                        {t('admin:registration.withdraw')}
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
