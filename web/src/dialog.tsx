// A modal dialog over a page (the library's preview and report, the console's user editor).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import './dialog.css';

/**
 * A modal dialog: Escape or the close button leave it; the caller puts the focus back where it was. Escape inside a
 * question in the dialog (a confirmation, a rename field) cancels only that question, which handles the key itself.
 * `class` names the page's own look (its width) beside the shared one.
 */
export function Dialog(props: { class: string; labelledBy: string; closeLabel: string; onClose: () => void; children: ComponentChildren }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current!;
    if (!element.open) element.showModal();
    return () => element.open && element.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      class={`modal ${props.class}`}
      aria-labelledby={props.labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        if (!(event.target as Element).closest('[role=alertdialog], form.rename')) props.onClose();
      }}
    >
      <button type="button" class="secondary small close" onClick={props.onClose}>
        {props.closeLabel}
      </button>
      {props.children}
    </dialog>
  );
}
