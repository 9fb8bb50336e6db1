// The profile page's game profiles (contract section 16): each profile with its head, its name (renamed in place) and
// the primary one marked; a new profile within the account's limit; a profile other than the primary deleted after
// the password; and each profile's skin and cape chosen out of the account's wardrobe. With the default limit of one
// profile the section stays small: the one profile and how many are allowed.
import { useRef, useState } from 'preact/hooks';
import { api, textureUrls, type UserDetail } from '../api.ts';
import { Field, Form, messageOf, useAction } from '../components.tsx';
import { Confirmation, InlineRename } from '../editing.tsx';
import { t, useT } from '../i18n.ts';

export type DetailProfile = UserDetail['Profiles'][number];

/** The head of what a profile wears: by its skin's UUID when it wears one, so a change of skin is a new address. */
export const profileHead = (profile: DetailProfile, size = 64) => textureUrls.head(profile.Selected_Skin || profile.Uuid, size);

/** How many profiles the account has and may have. */
function limitLine(count: number, limit: number): string {
  if (limit === -1) return t('profiles.countUnlimited', { count });
  if (limit === 1 && count <= 1) return t('profiles.single');
  if (count >= limit) return t('profiles.countFull', { count, limit });
  return t('profiles.count', { count, limit });
}

export function ProfilesSection(props: { detail: UserDetail; onChange: () => Promise<void> }) {
  useT();
  const action = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const { Profiles: profiles, MaxProfiles: limit } = props.detail;
  const atLimit = limit !== -1 && profiles.length >= limit;
  // One profile and no room for another: nothing to choose per profile (the wardrobe above dresses it).
  const single = profiles.length <= 1 && atLimit;
  return (
    <section class="card" aria-labelledby="profiles-title">
      <h3 id="profiles-title" ref={heading} tabIndex={-1}>
        {t('profiles.title')}
      </h3>
      <p class="muted">{limitLine(profiles.length, limit)}</p>
      {atLimit && <p class="muted">{t('profiles.askAdmin')}</p>}
      <div aria-live="polite">{action.outcome}</div>
      <ul class="items profiles">
        {profiles.map((profile) => (
          <ProfileItem
            key={profile.Uuid}
            profile={profile}
            detail={props.detail}
            dress={!single}
            onChange={props.onChange}
            onDeleted={(name) => {
              heading.current?.focus();
              void action.run(async () => {
                await props.onChange();
                return t('profiles.deleted', { name });
              });
            }}
          />
        ))}
      </ul>
      {!atLimit && (
        <Form
          resetOnSuccess
          submitLabel={t('profiles.add')}
          submit={async ({ name }) => {
            const reply = await api.post<{ name: string }>('/api/home/profiles', { name: (name ?? '').trim() });
            await props.onChange();
            // Said above the list: the form goes when the new profile reaches the limit.
            await action.run(async () => t('profiles.added', { name: reply.data.name }));
          }}
        >
          <Field label={t('profiles.newName')} name="name" required autocomplete="off" hint={t('profiles.newNameHint')} />
        </Form>
      )}
    </section>
  );
}

function ProfileItem(props: {
  profile: DetailProfile;
  detail: UserDetail;
  /** Whether to offer the skin and cape choice. */
  dress: boolean;
  onChange: () => Promise<void>;
  onDeleted: (name: string) => void;
}) {
  const { profile, detail } = props;
  const action = useAction();
  const [deleting, setDeleting] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const name = profile.Username;
  const path = `/api/home/profiles/${profile.Uuid}`;
  const dress = (changes: { selected_skin?: string; selected_cape?: string }, note: string) =>
    action.run(async () => {
      await api.patch(path, changes);
      await props.onChange();
      return note;
    });
  const cancel = () => {
    setDeleting(false);
    setPassword('');
    setPasswordError(null);
    setTimeout(() => deleteButton.current?.focus());
  };
  const remove = async () => {
    if (!password) return setPasswordError(t('profiles.passwordNeeded'));
    setBusy(true);
    try {
      await api.delete(path, { password });
    } catch (failure) {
      setBusy(false);
      setPasswordError(messageOf(failure));
      return;
    }
    setBusy(false);
    setDeleting(false);
    props.onDeleted(name);
  };
  const skinName = detail.Skins.find((skin) => skin.uuid === profile.Selected_Skin)?.name;
  return (
    <li data-profile-uuid={profile.Uuid} aria-label={t('profiles.itemLabel', { name })}>
      <img class="head" src={profileHead(profile)} alt={t('profiles.headOf', { name })} width={48} height={48} />
      <div class="grow">
        <InlineRename
          name={name}
          what="profile"
          rename={async (renamed) => {
            await api.patch(path, { name: renamed });
            await props.onChange();
            // Its own confirmation, in place of what the profile's last change said.
            await action.run(async () => t('profiles.renamed', { from: name, to: renamed }));
          }}
        />
        <small>
          {profile.Primary && <span class="primary-mark">{t('profiles.primary')}</span>}
          {profile.Primary && ' · '}
          {skinName ? t('profiles.wears', { skin: skinName }) : t('profiles.defaultSkin')}
        </small>
      </div>
      {!profile.Primary && (
        <div class="actions">
          <button
            ref={deleteButton}
            type="button"
            class="danger"
            aria-label={t('profiles.deleteLabel', { name })}
            disabled={deleting}
            onClick={() => setDeleting(true)}
          >
            {t('profiles.delete')}
          </button>
        </div>
      )}
      {props.dress && (
        <div class="fields profile-dress">
          <div class="field">
            <label for={`skin-of-${profile.Uuid}`}>{t('profiles.skinOf', { name })}</label>
            <select
              id={`skin-of-${profile.Uuid}`}
              value={profile.Selected_Skin}
              disabled={action.busy}
              onChange={(event) => {
                const chosen = event.currentTarget.value;
                const skin = detail.Skins.find((listed) => listed.uuid === chosen);
                void dress(
                  { selected_skin: chosen },
                  skin ? t('profiles.skinChosen', { name, skin: skin.name }) : t('profiles.skinCleared', { name }),
                );
              }}
            >
              <option value="">{t('profiles.noSkin')}</option>
              {detail.Skins.map((skin) => (
                <option key={skin.uuid} value={skin.uuid}>
                  {skin.name}
                </option>
              ))}
            </select>
          </div>
          {detail.Capes.length > 0 && (
            <div class="field">
              <label for={`cape-of-${profile.Uuid}`}>{t('profiles.capeOf', { name })}</label>
              <select
                id={`cape-of-${profile.Uuid}`}
                value={profile.Selected_Cape}
                disabled={action.busy}
                onChange={(event) => {
                  const chosen = event.currentTarget.value;
                  const cape = detail.Capes.find((listed) => listed.Id === chosen);
                  void dress(
                    { selected_cape: chosen },
                    cape ? t('profiles.capeChosen', { name, cape: cape.Name }) : t('profiles.capeCleared', { name }),
                  );
                }}
              >
                <option value="">{t('profiles.noCape')}</option>
                {detail.Capes.map((cape) => (
                  <option key={cape.Id} value={cape.Id}>
                    {cape.Name}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
      )}
      {action.outcome}
      {deleting && (
        <Confirmation
          confirmLabel={t('profiles.deleteConfirm', { name })}
          danger
          onCancel={cancel}
          onConfirm={() => void remove()}
          fields={
            <div
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  void remove();
                }
              }}
            >
              <Field
                label={t('profiles.yourPassword')}
                name="password"
                type="password"
                autocomplete="current-password"
                value={password}
                onInput={(value) => {
                  setPassword(value);
                  setPasswordError(null);
                }}
                error={passwordError}
              />
              {busy && <p class="muted">{t('profiles.deleting')}</p>}
            </div>
          }
        >
          {t('profiles.deleteQuestion', { name })}
        </Confirmation>
      )}
    </li>
  );
}
