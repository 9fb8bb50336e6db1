// Friends on the profile (contract section 25, with FRIENDS=true): the game's friends list of each of the player's
// profiles, so that a player without Minecraft 26.2 sees and answers requests too: the requests received (accept,
// decline), the friends with what they are doing (remove), the requests sent (take back), and a request by name.
// Without FRIENDS the service answers 404 and the card is not shown.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WebFriends } from '../../../src/friends/shapes.ts';
import { api, ApiError } from '../api.ts';
import { Field, Form, Notice, messageOf, uniqueId, useAction } from '../components.tsx';
import { Confirmation } from '../editing.tsx';
import { t } from '../i18n.ts';

type Friend = WebFriends['friends'][number];

/** The chosen profile's friends; `profileUuid` follows the wardrobe's choice while the player does not pick another. */
export function FriendsSection(props: { profileUuid: string }) {
  const [lists, setLists] = useState<WebFriends[] | null>(null);
  const [off, setOff] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const acting = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const [selectId] = useState(() => uniqueId('friends-profile'));
  const load = () =>
    api.get<WebFriends[]>('/api/home/friends').then(
      (reply) => setLists(reply.data),
      (error) => {
        if (error instanceof ApiError && error.status === 404) setOff(true);
        else setFailure(messageOf(error));
      },
    );
  useEffect(() => void load(), []);
  if (off) return null;
  const mine = lists && (lists.find((list) => list.uuid === (chosen ?? props.profileUuid)) ?? lists[0]);

  const replace = (updated: WebFriends) => setLists((all) => all && all.map((list) => (list.uuid === updated.uuid ? updated : list)));
  /** One answer to a request, or the end of a friendship: the list comes back, the focus goes to the card's heading. */
  const act = (work: () => Promise<WebFriends>, note: string) =>
    acting.run(async () => {
      replace(await work());
      heading.current?.focus();
      return note;
    });
  const accept = (friend: { uuid: string; name: string }) =>
    act(
      async () => (await api.post<WebFriends>('/api/home/friends', { uuid: friend.uuid, profile: mine!.uuid })).data,
      t('friends.accepted', { name: friend.name }),
    );
  const remove = (friend: { uuid: string; name: string }, note: string) =>
    act(async () => (await api.delete<WebFriends>(`/api/home/friends/${friend.uuid}?profile=${mine!.uuid}`)).data, note);

  return (
    <section class="card friends" aria-labelledby="friends-title">
      <h3 id="friends-title" ref={heading} tabIndex={-1}>
        {t('friends.title')}
      </h3>
      <p class="muted">{t('friends.text')}</p>
      {failure && <Notice kind="error">{failure}</Notice>}
      {!lists && !failure && <p>{t('common.loading')}</p>}
      {lists && lists.length > 1 && (
        <div class="field">
          <label for={selectId}>{t('friends.profile')}</label>
          <select id={selectId} value={mine!.uuid} onChange={(event) => setChosen(event.currentTarget.value)}>
            {lists.map((list) => (
              <option key={list.uuid} value={list.uuid}>
                {list.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {mine && (
        <>
          <h4>{t('friends.incoming', { n: mine.incoming.length })}</h4>
          {mine.incoming.length === 0 ? (
            <p class="muted">{t('friends.noIncoming')}</p>
          ) : (
            <ul class="items friend-list" aria-label={t('friends.incoming', { n: mine.incoming.length })}>
              {mine.incoming.map((friend) => (
                <li key={friend.uuid} data-friend={friend.name}>
                  <div class="grow">
                    <strong>{friend.name}</strong>
                  </div>
                  <div class="actions">
                    <button
                      type="button"
                      disabled={acting.busy}
                      aria-label={t('friends.acceptLabel', { name: friend.name })}
                      onClick={() => void accept(friend)}
                    >
                      {t('friends.accept')}
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      disabled={acting.busy}
                      aria-label={t('friends.declineLabel', { name: friend.name })}
                      onClick={() => void remove(friend, t('friends.declined', { name: friend.name }))}
                    >
                      {t('friends.decline')}
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )}
          <h4>{t('friends.friends', { n: mine.friends.length })}</h4>
          {mine.friends.length === 0 ? (
            <p class="muted">{t('friends.none')}</p>
          ) : (
            <ul class="items friend-list" aria-label={t('friends.friends', { n: mine.friends.length })}>
              {mine.friends.map((friend) => (
                <FriendItem
                  key={friend.uuid}
                  friend={friend}
                  busy={acting.busy}
                  onRemove={() => void remove(friend, t('friends.removed', { name: friend.name }))}
                />
              ))}
            </ul>
          )}
          {mine.outgoing.length > 0 && (
            <>
              <h4>{t('friends.outgoing', { n: mine.outgoing.length })}</h4>
              <ul class="items friend-list" aria-label={t('friends.outgoing', { n: mine.outgoing.length })}>
                {mine.outgoing.map((friend) => (
                  <li key={friend.uuid} data-friend={friend.name}>
                    <div class="grow">
                      <strong>{friend.name}</strong>
                      <small>{t('friends.waiting')}</small>
                    </div>
                    <div class="actions">
                      <button
                        type="button"
                        class="secondary"
                        disabled={acting.busy}
                        aria-label={t('friends.takeBackLabel', { name: friend.name })}
                        onClick={() => void remove(friend, t('friends.takenBack', { name: friend.name }))}
                      >
                        {t('friends.takeBack')}
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            </>
          )}
          <div aria-live="polite">{acting.outcome}</div>
          <Form
            submitLabel={t('friends.send')}
            resetOnSuccess
            submit={async ({ name }) => {
              const reply = await api.post<WebFriends>('/api/home/friends', { name: name!.trim(), profile: mine.uuid });
              replace(reply.data);
              const friend = reply.data.friends.find((entry) => entry.name.toLowerCase() === name!.trim().toLowerCase());
              return friend ? t('friends.accepted', { name: friend.name }) : t('friends.sent', { name: name!.trim() });
            }}
          >
            <Field label={t('friends.name')} name="name" required autocomplete="off" />
          </Form>
        </>
      )}
    </section>
  );
}

/** A friend with what they are doing, and a Remove that asks first (the friend would have to accept a new request). */
function FriendItem(props: { friend: Friend; busy: boolean; onRemove: () => void }) {
  const { friend } = props;
  const [asking, setAsking] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const cancel = () => {
    setAsking(false);
    setTimeout(() => button.current?.focus());
  };
  return (
    <li data-friend={friend.name}>
      <div class="grow">
        <strong>{friend.name}</strong>
        <small>{statusText(friend)}</small>
      </div>
      <div class="actions">
        <button
          ref={button}
          type="button"
          class="danger"
          disabled={asking || props.busy}
          aria-label={t('friends.removeLabel', { name: friend.name })}
          onClick={() => setAsking(true)}
        >
          {t('friends.remove')}
        </button>
      </div>
      {asking && (
        <Confirmation
          confirmLabel={t('friends.removeConfirm', { name: friend.name })}
          danger
          onConfirm={() => {
            setAsking(false);
            props.onRemove();
          }}
          onCancel={cancel}
        >
          {t('friends.removeQuestion', { name: friend.name })}
        </Confirmation>
      )}
    </li>
  );
}

/** What a friend is doing, as the game last told it (kept 10 minutes), in the page's words. */
function statusText(friend: Friend): string {
  switch (friend.status) {
    case 'ONLINE':
      return t('friends.status.online');
    case 'PLAYING_OFFLINE':
      return t('friends.status.alone');
    case 'PLAYING_REALMS':
      return t('friends.status.realms');
    case 'PLAYING_SERVER':
      return t('friends.status.server');
    case 'PLAYING_HOSTED_SERVER':
      return t('friends.status.hosted');
    default:
      return t('friends.status.offline');
  }
}
