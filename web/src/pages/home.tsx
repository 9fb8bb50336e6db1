// /home: the player's profile. The 3D preview shows what launchers get: the selected skin, and the skin's linked
// cape or else the selected cape (docs/decisions.md). The game login card gives launchers the API's address.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, session, textureUrls, type CapeRecord, type SkinRecord, type UserDetail } from '../api.ts';
import { Confirmation, CopyField, Field, Form, InlineRename, Notice, Page, messageOf, useAction } from '../components.tsx';
import { leaveNote } from '../flash.ts';
import { Link, navigate } from '../router.tsx';
import { SkinPreview } from '../viewer.tsx';
import { DeleteAccount, Sessions } from './self-service.tsx';
import { TwoFactorSection } from './two-factor.tsx';
import { DiscordLink } from './discord.tsx';

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
  leaveNote('You are logged out.');
  navigate('/login');
}

export function HomePage() {
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
        if (!session.token()) navigate('/login', { replace: true });
        else setFailure(messageOf(error));
        return null;
      },
    );
  const reload = async () => void (await load());
  useEffect(() => {
    if (!session.token()) navigate('/login', { replace: true });
    else void reload();
  }, []);

  if (failure)
    return (
      <Page title="Your profile">
        <Notice kind="error">{failure}</Notice>
      </Page>
    );
  if (!wardrobe)
    return (
      <Page title="Your profile">
        <p>Loading…</p>
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
          {profile.PermLvl >= 1 && <Link href="/admin">Admin</Link>}
          <button type="button" class="link" onClick={() => void logOut()}>
            Log out
          </button>
        </>
      }
    >
      <p class="muted">{profile.Mail}</p>
      <div class="columns with-preview">
        <SkinPreview
          label={`3D preview of ${profile.Username}`}
          skinUrl={shownSkin ? textureUrls.skinFile(shownSkin.uuid) : textureUrls.skinFile(profile.Uuid)}
          slim={shownSkin ? shownSkin.slim : null}
          capeUrl={shownCape ? textureUrls.capeFile(shownCape) : null}
          caption={
            shownSkin && shownSkin !== selectedSkin ? (
              <p>
                Showing <strong>{shownSkin.name}</strong>, not worn yet.
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
      <GameLogin apiRoot={gameApiRoot} uuid={profile.Uuid} />
      <AccountForms />
      <DiscordLink profile={profile} onChange={reload} />
      <TwoFactorSection enabled={profile.TwoFactor} onChange={reload} />
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
  const launcherDocument = props.apiRoot && `${props.apiRoot.replace(/\/api\/yggdrasil\/?$/, '')}/api/skin/launcher/${props.uuid}`;
  return (
    <section class="card" aria-labelledby="game-login">
      <h2 id="game-login">Play Minecraft with this account</h2>
      {props.apiRoot && (
        <details open>
          <summary>Launchers with authlib-injector (HMCL, Prism Launcher, …)</summary>
          <LauncherAddress apiRoot={props.apiRoot} />
        </details>
      )}
      <details>
        <summary>GravitLauncher</summary>
        <p>
          Servers with a launcher of their own (GravitLauncher) are set up by their owner: ask them for the launcher. It logs in with this
          same account, your mail address or player name and your password, and shows the skin and cape you wear here.
        </p>
      </details>
      <details>
        <summary>CustomSkinLoader</summary>
        <p>
          The CustomSkinLoader mod reads skins by player name from a skin site's CustomSkinAPI address. This service does not offer that
          address yet; use a launcher above to see your skin in the game.
        </p>
      </details>
      {launcherDocument && <CopyField label="Launcher document" value={launcherDocument} />}
      <CopyField label="Your UUID" value={props.uuid} />
    </section>
  );
}

/** The game login's address as a link to drag into a launcher (authlib-injector's launcher specification) and as text. */
function LauncherAddress(props: { apiRoot: string }) {
  const [hint, setHint] = useState('');
  const dragData = `authlib-injector:yggdrasil-server:${encodeURIComponent(props.apiRoot)}`;
  return (
    <>
      <p>
        Drag this link into your launcher (HMCL, a Prism Launcher build with authlib-injector support, …) or paste the address below into it
        as a new authentication server, then log in there with your mail address or player name and your password:
      </p>
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
            setHint('Drag the link into your launcher, or copy the address below.');
          }}
        >
          Game login at {new URL(props.apiRoot).host}
        </a>
      </p>
      <small role="status" aria-live="polite">
        {hint}
      </small>
      <CopyField label="Authentication server address" value={props.apiRoot} />
    </>
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
        throw new Error(messageOf(failure).replace('it can be at most', 'skins can be at most'));
      }
      const worn = await props.onUploaded(reply.data);
      if (worn) return `${file.name} uploaded: you wear it now.`;
      setUploaded(reply.data);
      return `${file.name} uploaded: the preview shows it.`;
    });
  };
  const wear = (skin: SkinRecord) =>
    action.run(async () => {
      await props.onWear(skin);
      setUploaded(null);
      return `You wear ${skin.name} now.`;
    });
  return (
    <section class="card" aria-labelledby="upload-title">
      <h2 id="upload-title">Upload a skin</h2>
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
        <span>Drop a skin PNG here, or choose a file</span>
        <input
          type="file"
          name="skin"
          accept="image/png"
          aria-label="Skin file"
          onChange={(event) => {
            const input = event.currentTarget;
            upload(input.files?.[0]);
            input.value = '';
          }}
        />
      </label>
      <div class="field">
        <label for="skin-model">Model</label>
        <select id="skin-model" value={model} onChange={(event) => setModel(event.currentTarget.value)}>
          <option value="auto">Detect from the skin</option>
          <option value="classic">Classic (4-pixel arms)</option>
          <option value="slim">Slim (3-pixel arms)</option>
        </select>
      </div>
      {action.busy && <p class="muted">Uploading…</p>}
      <div class="upload-outcome">
        {action.outcome}
        {uploaded && !action.busy && (
          <button type="button" onClick={() => void wear(uploaded)}>
            Wear it
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
        <h2 id="skins-title">Your skins</h2>
        <p class="muted">No skins yet: you wear the default one.</p>
      </section>
    );
  return (
    <section class="card" aria-labelledby="skins-title">
      <h2 id="skins-title" ref={heading} tabIndex={-1}>
        Your skins
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
                {skin.slim ? 'slim' : 'classic'}
                {skin.selected ? ' · worn' : ''}
              </small>
            </div>
            <div class="actions">
              {!skin.selected && (
                <button type="button" aria-label={`Wear ${skin.name}`} onClick={() => void action.run(() => props.onWear(skin))}>
                  Wear
                </button>
              )}
              <button
                type="button"
                class="danger"
                aria-label={`Delete ${skin.name}`}
                disabled={deleting === skin.uuid}
                onClick={() => setDeleting(skin.uuid)}
              >
                Delete
              </button>
            </div>
            {deleting === skin.uuid && (
              <Confirmation
                confirmLabel={`Delete ${skin.name}`}
                danger
                onCancel={() => {
                  setDeleting(null);
                  setTimeout(() => document.querySelector<HTMLElement>(`[data-skin-uuid="${skin.uuid}"] button.danger`)?.focus());
                }}
                onConfirm={() => {
                  setDeleting(null);
                  heading.current?.focus();
                  void change(() => api.delete(`/api/home/skins/${skin.uuid}`), `The skin ${skin.name} is deleted.`);
                }}
              >
                Delete the skin "{skin.name}" for good?{skin.selected ? ' You wear it now: afterwards you wear the default skin.' : ''}
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
      <h2 id="capes-title">Your capes</h2>
      {action.outcome}
      <ul class="items">
        {props.capes.map((cape) => (
          <li key={cape.uuid} class={cape.selected ? 'selected' : ''} data-cape-uuid={cape.uuid}>
            <img class="thumb" src={textureUrls.capeOnPlayer(cape.uuid)} alt="" width={48} height={107} />
            <div class="grow">
              <strong>{cape.name}</strong>
              <small>{cape.selected ? 'worn' : ''}</small>
            </div>
            {!cape.selected && (
              <button type="button" aria-label={`Wear ${cape.name}`} onClick={() => void wear(cape.uuid)}>
                Wear
              </button>
            )}
          </li>
        ))}
      </ul>
      {anySelected && (
        <button type="button" class="secondary" onClick={() => void wear('')}>
          Wear no cape
        </button>
      )}
    </section>
  );
}

function AccountForms() {
  return (
    <div class="columns">
      <section class="card" aria-labelledby="change-password-title">
        <h2 id="change-password-title">Change password</h2>
        <Form
          submitLabel="Change password"
          submit={async ({ current_password, password }) => {
            await api.patch('/api/home', { current_password, password });
            // A password change ends every session, this one too.
            session.clear();
            leaveNote('Your password is changed. Log in with the new one.');
            navigate('/login');
          }}
        >
          <Field label="Current password" name="current_password" type="password" required autocomplete="current-password" />
          <Field label="New password" name="password" type="password" required autocomplete="new-password" />
        </Form>
      </section>
      <section class="card" aria-labelledby="change-mail-title">
        <h2 id="change-mail-title">Change mail address</h2>
        <Form
          resetOnSuccess
          submitLabel="Change mail"
          submit={async ({ mail, current_password }) => {
            const reply = await api.patch('/api/home', { mail, current_password });
            return reply.msg || `We sent a code to ${mail}: open the link in it to confirm the new address.`;
          }}
        >
          <Field label="New mail address" name="mail" type="email" required autocomplete="email" />
          <Field label="Current password" name="current_password" type="password" required autocomplete="current-password" />
        </Form>
      </section>
    </div>
  );
}
