// /home: the player's profile. The 3D preview shows what launchers get: the selected skin, and the skin's linked
// cape or else the selected cape (docs/decisions.md). The game login card gives launchers the API's address.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, session, textureUrls, type CapeRecord, type SkinRecord, type UserDetail } from '../api.ts';
import { CopyField, Field, Form, Notice, Page, PasswordOwner, messageOf, useAction } from '../components.tsx';
import { Confirmation, InlineRename } from '../editing.tsx';
import { leaveNote } from '../flash.ts';
import { adoptAccountLanguage, formatSize, Rich, t, useT } from '../i18n.ts';
import { Link, navigate, sendToLogin } from '../router.tsx';
import { LauncherAddress } from '../launcher-address.tsx';
import { SkinPreview } from '../viewer.tsx';
import { DeleteAccount, Sessions } from './self-service.tsx';
import { TwoFactorSection } from './two-factor-settings.tsx';
import { AppPasswordsSection } from './app-passwords.tsx';
import { PasskeysSection } from './passkeys.tsx';
import { DiscordLink } from './discord-account.tsx';
import { ProfilesSection } from './profiles.tsx';
import { LauncherGrants } from './launcher-grants.tsx';

interface Wardrobe {
  profile: UserDetail;
  skins: SkinRecord[];
  capes: CapeRecord[];
  /** The game login's API root, or null if the service did not name one. */
  gameApiRoot: string | null;
}

/** Where launchers find the game login: the service names it on every response (contract section 9). */
const API_LOCATION_HEADER = 'x-authlib-injector-api-location';

async function loadWardrobe(): Promise<Wardrobe> {
  const home = await api.get<UserDetail>('/api/home');
  const profile = home.data;
  // The account's stored language (contract section 14): the pages follow it.
  await adoptAccountLanguage(profile.Language);
  // Taken from the service, not from this page's address: the page may be opened by an address other than
  // PUBLIC_URL (127.0.0.1, a LAN address), and games must use PUBLIC_URL, the host their textures are allowed from.
  const location = home.headers.get(API_LOCATION_HEADER);
  const gameApiRoot = location ? new URL(location, window.location.href).href : null;
  if (!profile.Username) return { profile, skins: [], capes: [], gameApiRoot };
  const [skins, capes] = await Promise.all([api.get<SkinRecord[]>('/api/home/skins'), api.get<CapeRecord[]>('/api/home/capes')]);
  return { profile, skins: skins.data, capes: capes.data, gameApiRoot };
}

export async function logOut() {
  await api.post('/api/auth/logout').catch(() => undefined);
  session.clear();
  leaveNote(t('home.loggedOut'));
  navigate('/login');
}

export function HomePage() {
  useT();
  const [wardrobe, setWardrobe] = useState<Wardrobe | null>(null);
  /** A skin just uploaded and not worn: the preview shows it at once, until it is worn or another is chosen. */
  const [tryingOn, setTryingOn] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const load = () =>
    loadWardrobe().then(
      (loaded) => {
        if (!loaded.profile.Username) navigate('/register/finish', { replace: true });
        else setWardrobe(loaded);
        return loaded;
      },
      (error) => {
        if (!session.token()) sendToLogin();
        else setFailure(messageOf(error));
        return null;
      },
    );
  const reload = async () => void (await load());
  useEffect(() => {
    if (!session.token()) sendToLogin();
    else void reload();
  }, []);

  if (failure)
    return (
      <Page title={t('app.homeTitle')}>
        <Notice kind="error">{failure}</Notice>
      </Page>
    );
  if (!wardrobe)
    return (
      <Page title={t('app.homeTitle')}>
        <p>{t('common.loading')}</p>
      </Page>
    );
  const { profile, skins, capes, gameApiRoot } = wardrobe;
  const selectedSkin = skins.find((skin) => skin.selected) ?? null;
  const selectedCape = capes.find((cape) => cape.selected) ?? null;
  const wornCape = selectedSkin?.cloak_id || selectedCape?.uuid || null;
  const shownSkin = skins.find((skin) => skin.uuid === tryingOn && !skin.selected) ?? selectedSkin;
  const shownCape = shownSkin === selectedSkin ? wornCape : shownSkin?.cloak_id || selectedCape?.uuid || null;
  const wear = async (skin: SkinRecord) => {
    await api.patch('/api/home', { selected_skin: skin.uuid });
    setTryingOn(null);
    await reload();
  };

  return (
    <Page
      title={profile.Username}
      wide
      nav={
        <>
          {profile.PermLvl >= 1 && <Link href="/admin">{t('home.admin')}</Link>}
          <button type="button" class="link" onClick={() => void logOut()}>
            {t('home.logOut')}
          </button>
        </>
      }
    >
      {profile.Mail ? <p class="muted">{profile.Mail}</p> : <Notice kind="ok">{t('account.noMail')}</Notice>}
      <div class="columns with-preview">
        <SkinPreview
          label={t('home.preview', { name: profile.Username })}
          skinUrl={shownSkin ? textureUrls.skinFile(shownSkin.uuid) : textureUrls.skinFile(profile.Uuid)}
          slim={shownSkin ? shownSkin.slim : null}
          capeUrl={shownCape ? textureUrls.capeFile(shownCape) : null}
          caption={
            shownSkin && shownSkin !== selectedSkin ? (
              <p>
                <Rich text={t('home.showing', { name: shownSkin.name })} parts={{ name: (text) => <strong>{text}</strong> }} />
              </p>
            ) : null
          }
        />
        <div class="stack">
          <SkinUpload
            onUploaded={async (skin) => {
              setTryingOn(skin.uuid);
              const loaded = await load();
              return loaded?.skins.find((listed) => listed.uuid === skin.uuid)?.selected ?? false;
            }}
            onWear={wear}
          />
          <SkinList skins={skins} capes={capes} onChange={reload} onWear={wear} />
          <CapeList capes={capes} onChange={reload} />
        </div>
      </div>
      <ProfilesSection detail={profile} onChange={reload} />
      <GameLogin apiRoot={gameApiRoot} uuid={profile.Uuid} />
      <PasswordOwner.Provider value={{ mail: profile.Mail, names: [profile.Username, ...profile.Profiles.map((owned) => owned.Username)] }}>
        <AccountForms hasMail={profile.Mail !== ''} />
      </PasswordOwner.Provider>
      <DiscordLink profile={profile} onChange={reload} />
      <TwoFactorSection enabled={profile.TwoFactor} onChange={reload} />
      <PasskeysSection twoFactor={profile.TwoFactor} />
      <AppPasswordsSection />
      <LauncherGrants />
      <div class="columns">
        <Sessions />
        <DeleteAccount username={profile.Username} skins={skins.length} capes={capes.length} />
      </div>
    </Page>
  );
}

/**
 * Playing with this account: how each kind of launcher gets it, the addresses they need (when the service named its
 * game login), and the player's UUID.
 */
function GameLogin(props: { apiRoot: string | null; uuid: string }) {
  // PUBLIC_URL is the game login root without its /api/yggdrasil/ (contract section 9).
  const siteRoot = props.apiRoot ? props.apiRoot.replace(/\/api\/yggdrasil\/?$/, '') : window.location.origin;
  const launcherDocument = props.apiRoot && `${siteRoot}/api/skin/launcher/${props.uuid}`;
  // CustomSkinLoader's CustomSkinAPI root (src/dropin/csl.ts): it asks {root}{name}.json.
  const cslRoot = `${siteRoot}/csl/`;
  const cslEntry = JSON.stringify({ name: new URL(cslRoot).host, type: 'CustomSkinAPI', root: cslRoot });
  return (
    <section class="card" aria-labelledby="game-login">
      <h2 id="game-login">{t('game.title')}</h2>
      {props.apiRoot && (
        <details open>
          <summary>{t('game.authlib')}</summary>
          <LauncherAddress apiRoot={props.apiRoot} />
        </details>
      )}
      <details>
        <summary>GravitLauncher</summary>
        <p>{t('game.gravit')}</p>
      </details>
      <details>
        <summary>CustomSkinLoader</summary>
        <p>{t('game.csl')}</p>
        <pre class="snippet">
          <code>{cslEntry}</code>
        </pre>
        <CopyField label={t('game.cslRoot')} value={cslRoot} />
      </details>
      {launcherDocument && <CopyField label={t('game.launcherDocument')} value={launcherDocument} />}
      <CopyField label={t('game.uuid')} value={props.uuid} />
    </section>
  );
}

/**
 * Drag and drop a PNG onto the zone, or pick it; the model is detected unless chosen. The new skin shows in the
 * preview at once, and the message under the zone offers to wear it.
 */
function SkinUpload(props: {
  /** Shows the new skin; true when the player wears it already (their first skin). */
  onUploaded: (skin: SkinRecord) => Promise<boolean>;
  onWear: (skin: SkinRecord) => Promise<void>;
}) {
  const action = useAction();
  const [dragging, setDragging] = useState(false);
  const [model, setModel] = useState('auto');
  /** The skin just uploaded, while it is not worn: the message offers to wear it. */
  const [uploaded, setUploaded] = useState<SkinRecord | null>(null);
  const upload = (file: File | undefined) => {
    if (!file) return;
    setUploaded(null);
    void action.run(async () => {
      const form = new FormData();
      if (model !== 'auto') form.append('slim', String(model === 'slim'));
      form.append('name', file.name.replace(/\.png$/i, '').slice(0, 64) || 'Skin');
      form.append('skin', file, file.name);
      let reply;
      try {
        reply = await api.upload<SkinRecord>('/api/home/skins', form);
      } catch (failure) {
        const limit = failure instanceof ApiError && failure.key === 'textures.fileTooLarge' ? failure.params.bytes : undefined;
        throw new Error(typeof limit === 'number' ? t('upload.tooLarge', { limit: formatSize(limit) }) : messageOf(failure));
      }
      const worn = await props.onUploaded(reply.data);
      if (worn) return t('upload.uploadedWorn', { file: file.name });
      setUploaded(reply.data);
      return t('upload.uploaded', { file: file.name });
    });
  };
  const wear = (skin: SkinRecord) =>
    action.run(async () => {
      await props.onWear(skin);
      setUploaded(null);
      return t('upload.wearing', { name: skin.name });
    });
  return (
    <section class="card" aria-labelledby="upload-title">
      <h2 id="upload-title">{t('upload.title')}</h2>
      <label
        class={dragging ? 'dropzone over' : 'dropzone'}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          upload(event.dataTransfer?.files[0]);
        }}
      >
        <span>{t('upload.drop')}</span>
        <input
          type="file"
          name="skin"
          accept="image/png"
          aria-label={t('upload.file')}
          onChange={(event) => {
            const input = event.currentTarget;
            upload(input.files?.[0]);
            input.value = '';
          }}
        />
      </label>
      <div class="field">
        <label for="skin-model">{t('upload.model')}</label>
        <select id="skin-model" value={model} onChange={(event) => setModel(event.currentTarget.value)}>
          <option value="auto">{t('upload.modelAuto')}</option>
          <option value="classic">{t('upload.modelClassic')}</option>
          <option value="slim">{t('upload.modelSlim')}</option>
        </select>
      </div>
      {action.busy && <p class="muted">{t('upload.uploading')}</p>}
      <div class="upload-outcome">
        {action.outcome}
        {uploaded && !action.busy && (
          <button type="button" onClick={() => void wear(uploaded)}>
            {t('upload.wearIt')}
          </button>
        )}
      </div>
    </section>
  );
}

function SkinList(props: {
  skins: SkinRecord[];
  capes: CapeRecord[];
  onChange: () => Promise<void>;
  onWear: (skin: SkinRecord) => Promise<void>;
}) {
  const action = useAction();
  const [deleting, setDeleting] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const change = (work: () => Promise<unknown>, note?: string) =>
    action.run(async () => {
      await work();
      await props.onChange();
      return note;
    });
  if (props.skins.length === 0)
    return (
      <section class="card" aria-labelledby="skins-title">
        <h2 id="skins-title">{t('skins.title')}</h2>
        <p class="muted">{t('skins.none')}</p>
      </section>
    );
  return (
    <section class="card" aria-labelledby="skins-title">
      <h2 id="skins-title" ref={heading} tabIndex={-1}>
        {t('skins.title')}
      </h2>
      <div aria-live="polite">{action.outcome}</div>
      <ul class="items">
        {props.skins.map((skin) => (
          <li key={skin.uuid} class={skin.selected ? 'selected' : ''} data-skin-uuid={skin.uuid}>
            <img class="thumb" src={textureUrls.body(skin.uuid)} alt="" width={48} height={107} />
            <div class="grow">
              <InlineRename
                name={skin.name}
                what="skin"
                rename={(name) => api.patch(`/api/home/skins/${skin.uuid}`, { name }).then(() => props.onChange())}
              />
              <small>
                {t(skin.selected ? 'skins.modelWorn' : 'skins.model', { model: skin.slim ? t('skins.slim') : t('skins.classic') })}
              </small>
            </div>
            <div class="actions">
              {!skin.selected && (
                <button
                  type="button"
                  aria-label={t('skins.wearLabel', { name: skin.name })}
                  onClick={() => void action.run(() => props.onWear(skin))}
                >
                  {t('skins.wear')}
                </button>
              )}
              <button
                type="button"
                class="danger"
                aria-label={t('skins.deleteLabel', { name: skin.name })}
                disabled={deleting === skin.uuid}
                onClick={() => setDeleting(skin.uuid)}
              >
                {t('skins.delete')}
              </button>
            </div>
            {deleting === skin.uuid && (
              <Confirmation
                confirmLabel={t('skins.deleteLabel', { name: skin.name })}
                danger
                onCancel={() => {
                  setDeleting(null);
                  setTimeout(() => document.querySelector<HTMLElement>(`[data-skin-uuid="${skin.uuid}"] button.danger`)?.focus());
                }}
                onConfirm={() => {
                  setDeleting(null);
                  heading.current?.focus();
                  void change(() => api.delete(`/api/home/skins/${skin.uuid}`), t('skins.deleted', { name: skin.name }));
                }}
              >
                {t(skin.selected ? 'skins.deleteWornQuestion' : 'skins.deleteQuestion', { name: skin.name })}
              </Confirmation>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function CapeList(props: { capes: CapeRecord[]; onChange: () => Promise<void> }) {
  const action = useAction();
  const wear = (uuid: string) =>
    action.run(async () => {
      await api.patch('/api/home', { selected_cape: uuid });
      await props.onChange();
    });
  if (props.capes.length === 0) return null;
  const anySelected = props.capes.some((cape) => cape.selected);
  return (
    <section class="card" aria-labelledby="capes-title">
      <h2 id="capes-title">{t('capes.title')}</h2>
      {action.outcome}
      <ul class="items">
        {props.capes.map((cape) => (
          <li key={cape.uuid} class={cape.selected ? 'selected' : ''} data-cape-uuid={cape.uuid}>
            <img class="thumb" src={textureUrls.capeOnPlayer(cape.uuid)} alt="" width={48} height={107} />
            <div class="grow">
              <strong>{cape.name}</strong>
              <small>{cape.selected ? t('capes.worn') : ''}</small>
            </div>
            {!cape.selected && (
              <button type="button" aria-label={t('skins.wearLabel', { name: cape.name })} onClick={() => void wear(cape.uuid)}>
                {t('skins.wear')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {anySelected && (
        <button type="button" class="secondary" onClick={() => void wear('')}>
          {t('capes.none')}
        </button>
      )}
    </section>
  );
}

function AccountForms(props: { hasMail: boolean }) {
  return (
    <div class="columns">
      <section class="card" aria-labelledby="change-password-title">
        <h2 id="change-password-title">{t('account.password')}</h2>
        <Form
          submitLabel={t('account.password')}
          submit={async ({ current_password, password }) => {
            await api.patch('/api/home', { current_password, password });
            // A password change ends every session, this one too.
            session.clear();
            leaveNote(t('resetConfirm.changed'));
            navigate('/login');
          }}
        >
          <Field label={t('account.currentPassword')} name="current_password" type="password" required autocomplete="current-password" />
          <Field label={t('field.newPassword')} name="password" type="password" required autocomplete="new-password" />
        </Form>
      </section>
      <section class="card" aria-labelledby="change-mail-title">
        <h2 id="change-mail-title">{t(props.hasMail ? 'account.mailTitle' : 'account.addMailTitle')}</h2>
        <Form
          resetOnSuccess
          submitLabel={t('account.mailSubmit')}
          submit={async ({ mail, current_password }) => {
            const reply = await api.patch('/api/home', { mail, current_password });
            return reply.msg || t('account.mailSent', { mail });
          }}
        >
          <Field label={t('account.newMail')} name="mail" type="email" required autocomplete="email" />
          <Field label={t('account.currentPassword')} name="current_password" type="password" required autocomplete="current-password" />
        </Form>
      </section>
    </div>
  );
}
