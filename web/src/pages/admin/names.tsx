// Players by name in the console: links to a player's editor, a username field with suggestions, and the lookup of a
// typed name (exact: GET /api/admin/user/{name}), plus the console's error texts in an admin's words.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, type ErrorParams, type UserDetail, type UserRecord } from '../../api.ts';
import { PASSWORD_LENGTH } from '../../../../src/shared/account-rules.ts';
import { messageOf } from '../../components.tsx';
import { t } from '../../i18n.ts';
import { Link } from '../../router.tsx';

/** Where the console shows one player: the Users section with their editor open. */
const userPath = (id: number) => `/admin?tab=users&user=${id}`;

/**
 * A player's name linking to their editor. Without a name: `unnamed` as the link's text when given (an account that
 * has not finished registering, say), otherwise the words for a deleted account, without a link.
 */
export function UserLink(props: { id: number; name: string; unnamed?: string }) {
  if (!props.name && props.unnamed === undefined) return <span class="muted">{t('admin:users.deleted')}</span>;
  return <Link href={userPath(props.id)}>{props.name || props.unnamed}</Link>;
}

let nextListId = 0;

/**
 * A labelled text field for a username with suggestions (a datalist of up to ten names containing what is typed,
 * from GET /api/admin/users?search=). Controlled: `value` and `onInput`.
 */
export function UsernameField(props: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  name?: string;
  required?: boolean;
  error?: string | null;
  hint?: string;
  /** Several names separated by commas: suggestions complete the last one. */
  several?: boolean;
}) {
  const [id] = useState(() => `username-${(nextListId += 1)}`);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const cut = props.several ? props.value.lastIndexOf(',') + 1 : 0;
  const before = props.value.slice(0, cut).trim();
  const typed = props.value.slice(cut).trim();
  useEffect(() => {
    if (typed === '') return setSuggestions([]);
    let current = true;
    const timer = setTimeout(() => {
      api.get<UserRecord[]>('/api/admin/users', { search: typed, limit: 10 }).then(
        (reply) => current && setSuggestions(reply.data.map((user) => user.username).filter(Boolean)),
        () => current && setSuggestions([]),
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [typed]);
  const described = [props.error && `${id}-error`, props.hint && `${id}-hint`].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        list={`${id}-names`}
        autocomplete="off"
        value={props.value}
        required={props.required}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described || undefined}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      <datalist id={`${id}-names`}>
        {suggestions.map((name) => (
          <option key={name} value={before ? `${before} ${name}` : name} />
        ))}
      </datalist>
      {props.hint && <small id={`${id}-hint`}>{props.hint}</small>}
      {props.error && (
        <small id={`${id}-error`} class="field-error">
          {props.error}
        </small>
      )}
    </div>
  );
}

/** The player called exactly `name` (any case), with their id; an error in an admin's words when there is none. */
export async function playerNamed(name: string): Promise<UserDetail & { Id: number }> {
  const wanted = name.trim();
  if (!wanted) throw new Error(t('admin:errors.typeName'));
  try {
    const detail = (await api.get<UserDetail>(`/api/admin/user/${encodeURIComponent(wanted)}`)).data;
    return { ...detail, Id: detail.Id ?? 0 };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400))
      throw new Error(t('admin:errors.noPlayer', { name: wanted }));
    throw error;
  }
}

/**
 * The API's refusals the console can meet, by the API's message key, said the way an admin would, with what to do;
 * others in a player's words (messageOf) or as the API says them.
 */
const ADMIN_WORDS: Record<string, (params: ErrorParams) => string> = {
  'accounts.noUser': (params) => t('admin:errors.noPlayer', { name: params.identifier }),
  'textures.noSkin': () => t('admin:errors.skinGone'),
  'textures.noCape': () => t('admin:errors.capeGone'),
  'textures.fileRequired': () => t('admin:errors.chooseCape'),
  'textures.notPng': () => t('admin:errors.notPng'),
  'textures.truncated': () => t('admin:errors.notPng'),
  'textures.empty': () => t('admin:errors.notPng'),
  'textures.headerMissing': () => t('admin:errors.notPng'),
  'textures.headerDamaged': () => t('admin:errors.notPng'),
  'admin.expiryPast': () => t('admin:errors.futureEnd'),
  'admin.atOrAboveOwnLevel': () => t('admin:errors.aboveYou'),
  'textures.skinAtOrAboveOwnLevel': () => t('admin:errors.aboveYou'),
  'textures.capeOwnerAtOrAboveOwnLevel': () => t('admin:errors.aboveYou'),
  'admin.ownPerms': () => t('admin:errors.ownLevel'),
  'admin.ownRole': () => t('admin:errors.ownLevel'),
  'admin.banNeedsPermanent': () => t('admin:errors.permanentOnly'),
  'admin.grantNeedsPermanentOwner': () => t('admin:errors.permanentOnly'),
  'admin.onlyOwnerPerms': () => t('admin:errors.permanentOnly'),
  'admin.lastOwner': () => t('admin:errors.lastOwner'),
  'admin.noRoleGrant': () => t('admin:errors.noRole'),
  'textures.reasonTooLong': () => t('admin:errors.reasonTooLong'),
  'admin.usernameOrMailTaken': () => t('admin:errors.taken'),
  'textures.nameLength': () => t('admin:errors.capeName'),
  'accounts.usernameRule': () => t('admin:errors.username'),
  'accounts.mailRule': () => t('admin:errors.mail'),
  'accounts.passwordTooShort': () => t('admin:errors.passwordShort', { count: PASSWORD_LENGTH.min }),
  'accounts.passwordTooLong': () => t('admin:errors.passwordLong', { count: PASSWORD_LENGTH.max }),
};

/** Which of a form's fields an API refusal is about, if it is about one of `names`. */
export function fieldOf(error: unknown, names: readonly string[]): string | null {
  const field = error instanceof ApiError ? error.field : null;
  return field !== null && names.includes(field) ? field : null;
}

export function plainMessage(error: unknown): string {
  const words = error instanceof ApiError && error.key !== null ? ADMIN_WORDS[error.key] : undefined;
  return words ? words((error as ApiError).params) : messageOf(error);
}
