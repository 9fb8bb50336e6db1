// The profile's wardrobe (/home): which game profile it dresses when the account has several, the 3D preview of that
// profile, the skin upload, and the skins and capes to wear. The preview shows what launchers get for the profile: its
// skin, and the skin's linked cape or else its own cape (docs/decisions.md).
import { useRef, useState } from 'preact/hooks';
import { api, ApiError, textureUrls, type CapeRecord, type SkinRecord, type UserDetail } from '../api.ts';
import { messageOf, useAction } from '../components.tsx';
import { Confirmation, InlineRename } from '../editing.tsx';
import { formatSize, Rich, t } from '../i18n.ts';
import { SkinPreview } from '../viewer.tsx';
import { PublishControls, usePublished } from './library-publish.tsx';
import type { LibraryEntry } from '../../../src/http/shapes/library-entry.ts';
import type { DetailProfile } from './profiles.tsx';

/** What the wardrobe needs of the profile page. */
export interface WardrobeView {
  profile: UserDetail;
  skins: SkinRecord[];
  capes: CapeRecord[];
  reload: () => Promise<void>;
  /** Loads the account again and answers it (null when that failed). */
  load: () => Promise<{ profile: UserDetail } | null>;
  /** The game profile the wardrobe dresses and the preview shows (the primary one unless the player chose). */
  dressing: DetailProfile;
  choose: (uuid: string) => void;
  /** A skin just uploaded and not worn: the preview shows it at once, until it is worn or another is chosen. */
  tryingOn: string | null;
  setTryingOn: (uuid: string | null) => void;
}

/**
 * The wardrobe: which game profile it dresses (when the account has several), its 3D preview, the upload, and the
 * skins and capes to wear. The preview shows what launchers get for that profile: its skin, and the skin's linked
 * cape or else its own cape (docs/decisions.md).
 */
export function WardrobeCards(view: WardrobeView) {
  const { profile, skins, capes, dressing, tryingOn, setTryingOn } = view;
  const several = profile.Profiles.length > 1;
  const wornSkin = skins.find((skin) => skin.uuid === dressing.Selected_Skin) ?? null;
  const wornCape = wornSkin?.cloak_id || dressing.Selected_Cape || null;
  const shownSkin = skins.find((skin) => skin.uuid === tryingOn && skin !== wornSkin) ?? wornSkin;
  const shownCape = shownSkin === wornSkin ? wornCape : shownSkin?.cloak_id || dressing.Selected_Cape || null;
  const published = usePublished(profile.Username);
  /** Dresses the chosen profile: the account's own choice for the primary one, the profile's for another. */
  const dress = async (changes: { selected_skin?: string; selected_cape?: string }) => {
    if (dressing.Primary) await api.patch('/api/home', changes);
    else await api.patch(`/api/home/profiles/${dressing.Uuid}`, changes);
  };
  const wear = async (skin: SkinRecord) => {
    await dress({ selected_skin: skin.uuid });
    setTryingOn(null);
    await view.reload();
  };
  const wearCape = async (uuid: string) => {
    await dress({ selected_cape: uuid });
    await view.reload();
  };
  return (
    <>
      {several && <DressingChoice view={view} />}
      <div class="columns with-preview">
        <SkinPreview
          label={t('home.preview', { name: dressing.Username })}
          skinUrl={shownSkin ? textureUrls.skinFile(shownSkin.uuid) : textureUrls.skinFile(dressing.Uuid)}
          slim={shownSkin ? shownSkin.slim : null}
          capeUrl={shownCape ? textureUrls.capeFile(shownCape) : null}
          elytraToggle
          caption={
            shownSkin && shownSkin !== wornSkin ? (
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
              const loaded = await view.load();
              return loaded?.profile.Profiles.find((owned) => owned.Uuid === dressing.Uuid)?.Selected_Skin === skin.uuid;
            }}
            onWear={wear}
          />
          {/* Keyed by the dressed profile: a message about another profile goes with the choice. */}
          <SkinList
            key={`skins-${dressing.Uuid}`}
            skins={skins}
            worn={wornSkin?.uuid ?? ''}
            onChange={view.reload}
            onWear={wear}
            wearer={several ? dressing.Username : null}
            published={published.byDigest}
            onPublished={published.reload}
          />
          <CapeList
            key={`capes-${dressing.Uuid}`}
            capes={capes}
            worn={wornCape ?? ''}
            onWear={wearCape}
            wearer={several ? dressing.Username : null}
            published={published.byDigest}
            onPublished={published.reload}
          />
        </div>
      </div>
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
      <h3 id="upload-title">{t('upload.title')}</h3>
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

/**
 * With several game profiles: which one the wardrobe dresses. Its Wear buttons, the marks of what is worn and the
 * preview follow the choice.
 */
function DressingChoice(props: { view: WardrobeView }) {
  const { profile, dressing, choose } = props.view;
  return (
    <div class="card dressing">
      <div class="field">
        <label for="dressing-profile">{t('wardrobe.dressing')}</label>
        <select
          id="dressing-profile"
          aria-describedby="dressing-hint"
          value={dressing.Uuid}
          onChange={(event) => choose(event.currentTarget.value)}
        >
          {profile.Profiles.map((owned) => (
            <option key={owned.Uuid} value={owned.Uuid}>
              {owned.Primary ? t('wardrobe.primaryOption', { name: owned.Username }) : owned.Username}
            </option>
          ))}
        </select>
        <small id="dressing-hint">{t('wardrobe.dressingHint', { name: dressing.Username })}</small>
      </div>
    </div>
  );
}

/** The wear button's name: the skin or cape, and with several profiles the one it dresses. */
const wearLabel = (name: string, wearer: string | null) =>
  wearer === null ? t('skins.wearLabel', { name }) : t('wardrobe.wearOnLabel', { name, profile: wearer });

function SkinList(props: {
  skins: SkinRecord[];
  /** The skin the dressed profile wears ("" for none). */
  worn: string;
  /** The dressed profile's name when the account has several (the buttons and messages say whom they dress). */
  wearer: string | null;
  onChange: () => Promise<void>;
  onWear: (skin: SkinRecord) => Promise<void>;
  /** The player's library entries by texture digest. */
  published: Map<string, LibraryEntry>;
  onPublished: () => void;
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
        <h3 id="skins-title">{t('skins.title')}</h3>
        <p class="muted">{t('skins.none')}</p>
      </section>
    );
  return (
    <section class="card" aria-labelledby="skins-title">
      <h3 id="skins-title" ref={heading} tabIndex={-1}>
        {t('skins.title')}
      </h3>
      <div aria-live="polite">{action.outcome}</div>
      <ul class="items">
        {props.skins.map((skin) => {
          const worn = skin.uuid === props.worn;
          return (
            <li key={skin.uuid} class={worn ? 'selected' : ''} data-skin-uuid={skin.uuid}>
              <img class="thumb" src={textureUrls.body(skin.uuid)} alt="" width={48} height={107} />
              <div class="grow">
                <InlineRename
                  name={skin.name}
                  what="skin"
                  rename={(name) => api.patch(`/api/home/skins/${skin.uuid}`, { name }).then(() => props.onChange())}
                />
                <small>{t(worn ? 'skins.modelWorn' : 'skins.model', { model: skin.slim ? t('skins.slim') : t('skins.classic') })}</small>
              </div>
              <div class="actions">
                {!worn && (
                  <button
                    type="button"
                    aria-label={wearLabel(skin.name, props.wearer)}
                    onClick={() =>
                      void action.run(async () => {
                        await props.onWear(skin);
                        if (props.wearer !== null) return t('profiles.skinChosen', { name: props.wearer, skin: skin.name });
                      })
                    }
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
                  {t(worn ? 'skins.deleteWornQuestion' : 'skins.deleteQuestion', { name: skin.name })}
                </Confirmation>
              )}
              <PublishControls kind="skin" record={skin} entry={props.published.get(skin.digest)} onChange={props.onPublished} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function CapeList(props: {
  capes: CapeRecord[];
  /** The cape the dressed profile wears ("" for none). */
  worn: string;
  wearer: string | null;
  onWear: (uuid: string) => Promise<void>;
  published: Map<string, LibraryEntry>;
  onPublished: () => void;
}) {
  const action = useAction();
  const wear = (cape: CapeRecord | null) =>
    action.run(async () => {
      await props.onWear(cape?.uuid ?? '');
      if (props.wearer === null) return;
      return cape ? t('profiles.capeChosen', { name: props.wearer, cape: cape.name }) : t('profiles.capeCleared', { name: props.wearer });
    });
  if (props.capes.length === 0) return null;
  return (
    <section class="card" aria-labelledby="capes-title">
      <h3 id="capes-title">{t('capes.title')}</h3>
      <div aria-live="polite">{action.outcome}</div>
      <ul class="items">
        {props.capes.map((cape) => {
          const worn = cape.uuid === props.worn;
          return (
            <li key={cape.uuid} class={worn ? 'selected' : ''} data-cape-uuid={cape.uuid}>
              <img class="thumb" src={textureUrls.capeOnPlayer(cape.uuid)} alt="" width={48} height={107} />
              <div class="grow">
                <strong>{cape.name}</strong>
                <small>{worn ? t('capes.worn') : ''}</small>
              </div>
              {!worn && (
                <button type="button" aria-label={wearLabel(cape.name, props.wearer)} onClick={() => void wear(cape)}>
                  {t('skins.wear')}
                </button>
              )}
              {/* Only a cape of the player's own (USER_CAPES) may be published: one nobody else was given. */}
              {cape.owners.length === 1 && (
                <PublishControls kind="cape" record={cape} entry={props.published.get(cape.digest)} onChange={props.onPublished} />
              )}
            </li>
          );
        })}
      </ul>
      {props.worn !== '' && (
        <button type="button" class="secondary" onClick={() => void wear(null)}>
          {t('capes.none')}
        </button>
      )}
    </section>
  );
}
