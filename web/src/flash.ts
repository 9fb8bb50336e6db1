// A note carried from one page to the next ("Mail confirmed: log in to finish"), shown once.
let pending: string | null = null;

export function leaveNote(note: string) {
  pending = note;
}

export function takeNote(): string | null {
  const note = pending;
  pending = null;
  return note;
}
