// A user's game profiles in the console's user editor (contract section 16): each with its head and the primary one
// marked; admins add one (the account's limit does not bind them), rename one in place, delete or move one other
// than the primary to another account (typed by name, with suggestions), and set the account's own limit.
import { useState } from 'preact/hooks';
import { api, type UserDetail } from '../../api.ts';
import { Field, Form, useAction } from '../../components.tsx';
import { Confirmation, InlineRename } from '../../editing.tsx';
import { useT } from '../../i18n.ts';
import { profileHead } from '../profiles.tsx';
import { plainMessage, UsernameField } from './names.tsx';

type DetailProfile = UserDetail['Profiles'][number];

/** Throws an API refusal in an admin's words. */
const inWords = async <T,>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    throw new Error(plainMessage(error));
  }
};

export function UserProfiles(props: { user: UserDetail & { Id: number }; canEdit: boolean; onChanged: () => Promise<void> }) {
  const t = useT();
  const action = useAction();
  const { user } = props;
  const base = `/api/admin/user/${user.Id}/profiles`;
  const limit = user.MaxProfiles;
  const [limitError, setLimitError] = useState<string | null>(null);
  return (
    <div class="user-profiles" role="group" aria-labelledby="user-profiles-heading">
      <h3 id="user-profiles-heading">{t('admin:profiles.heading')}</h3>
      <p class="muted">
        {limit === -1
          ? t('admin:profiles.countUnlimited', { count: user.Profiles.length })
          : t('admin:profiles.count', { count: user.Profiles.length, limit })}
      </p>
      {user.Profiles.length === 0 && <p class="muted">{t('admin:profiles.none')}</p>}
      <div aria-live="polite">{action.outcome}</div>
      <ul class="items admin-profiles">
        {user.Profiles.map((profile) => (
          <ProfileItem
            key={profile.Uuid}
            profile={profile}
            path={`${base}/${profile.Uuid}`}
            canEdit={props.canEdit}
            onChanged={props.onChanged}
            onDone={(note) => void action.run(async () => note)}
          />
        ))}
      </ul>
      {props.canEdit && user.Uuid && (
        <div class="fields profile-forms">
          <Form
            resetOnSuccess
            submitLabel={t('admin:profiles.add')}
            submit={({ name }) =>
              inWords(async () => {
                const reply = await api.post<{ name: string }>(base, { name: (name ?? '').trim() });
                await props.onChanged();
                return t('admin:profiles.added', { name: reply.data.name });
              })
            }
          >
            <Field label={t('admin:profiles.newName')} name="name" required autocomplete="off" />
          </Form>
          <Form
            submitLabel={t('admin:profiles.saveLimit')}
            submit={({ max_profiles }) =>
              inWords(async () => {
                setLimitError(null);
                const typed = (max_profiles ?? '').trim();
                const value = typed === '' ? null : Number(typed);
                if (value !== null && !(Number.isInteger(value) && value >= -1 && value <= 1000)) {
                  setLimitError(t('admin:profiles.limitRule'));
                  setTimeout(() => (document.getElementsByName('max_profiles')[0] as HTMLInputElement | undefined)?.focus());
                  return;
                }
                const reply = await api.patch<UserDetail>(`/api/admin/user/${user.Id}`, { max_profiles: value });
                await props.onChanged();
                const now = reply.data.MaxProfiles;
                return now === -1 ? t('admin:profiles.limitSavedUnlimited') : t('admin:profiles.limitSaved', { limit: now });
              })
            }
          >
            <Field
              label={t('admin:profiles.limit')}
              name="max_profiles"
              type="number"
              value={user.OwnMaxProfiles == null ? '' : String(user.OwnMaxProfiles)}
              hint={t('admin:profiles.limitHint')}
              error={limitError}
            />
          </Form>
        </div>
      )}
    </div>
  );
}

function ProfileItem(props: {
  profile: DetailProfile;
  path: string;
  canEdit: boolean;
  onChanged: () => Promise<void>;
  onDone: (note: string) => void;
}) {
  const t = useT();
  const { profile } = props;
  const name = profile.Username;
  const action = useAction();
  const [asking, setAsking] = useState<'delete' | 'move' | null>(null);
  const [target, setTarget] = useState('');
  const [targetError, setTargetError] = useState<string | null>(null);
  const remove = () => {
    setAsking(null);
    void action.run(() =>
      inWords(async () => {
        await api.delete(props.path);
        await props.onChanged();
        props.onDone(t('admin:profiles.deleted', { name }));
      }),
    );
  };
  const move = () => {
    const to = target.trim();
    if (!to) return setTargetError(t('admin:errors.typeName'));
    setTargetError(null);
    void action.run(async () => {
      try {
        await api.post(`${props.path}/transfer`, { to });
      } catch (error) {
        setTargetError(plainMessage(error));
        return;
      }
      setAsking(null);
      setTarget('');
      await props.onChanged();
      props.onDone(t('admin:profiles.moved', { name, to }));
    });
  };
  return (
    <li aria-label={t('admin:profiles.item', { name })}>
      <img class="head" src={profileHead(profile)} alt="" width={48} height={48} />
      <div class="grow">
        {props.canEdit ? (
          <InlineRename
            name={name}
            what="profile"
            rename={(renamed) => inWords(() => api.patch(props.path, { name: renamed }).then(() => props.onChanged()))}
          />
        ) : (
          <strong>{name}</strong>
        )}
        <small>
          {profile.Primary ? <span class="primary-mark">{t('admin:profiles.primary')}</span> : null}
          {profile.Primary ? ' · ' : ''}
          {profile.Uuid}
        </small>
      </div>
      {props.canEdit && !profile.Primary && (
        <div class="actions">
          <button
            type="button"
            class="secondary small"
            aria-expanded={asking === 'move'}
            aria-label={t('admin:profiles.moveNamed', { name })}
            onClick={() => setAsking(asking === 'move' ? null : 'move')}
          >
            {t('admin:profiles.move')}
          </button>
          <button
            type="button"
            class="danger small"
            aria-label={t('admin:profiles.deleteNamed', { name })}
            disabled={action.busy}
            onClick={() => setAsking('delete')}
          >
            {t('admin:profiles.delete')}
          </button>
        </div>
      )}
      {asking === 'move' && (
        <form
          class="give-cape profile-move"
          onSubmit={(event) => {
            event.preventDefault();
            move();
          }}
        >
          <UsernameField
            label={t('admin:profiles.moveTo', { name })}
            value={target}
            onInput={(value) => {
              setTarget(value);
              setTargetError(null);
            }}
            error={targetError}
            hint={t('admin:profiles.moveHint')}
          />
          <button type="submit" disabled={action.busy}>
            {t('admin:profiles.moveSubmit')}
          </button>
        </form>
      )}
      {asking === 'delete' && (
        <Confirmation confirmLabel={t('admin:profiles.deleteNamed', { name })} danger onConfirm={remove} onCancel={() => setAsking(null)}>
          {t('admin:profiles.deleteQuestion', { name })}
        </Confirmation>
      )}
      {action.outcome}
    </li>
  );
}
