import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

interface FileButtonProps {
  /** The `<input type="file">`'s own attributes (id, accept, onChange, aria-*); drawn hidden. */
  inputProps: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement | null> };
  /** What the button says: 'Take or choose a photo'. */
  children: ReactNode;
  /** Drawn before the text. */
  icon?: ReactNode;
}

/**
 * A file input drawn as a button of its own, at least 44 × 44 px: the browser draws a file
 * input's button at the height of its text, whatever the input's box. The label, styled as a
 * button, wraps the input, which is visually hidden but stays in the tab order: a keyboard
 * reaches it (its focus ring is drawn on the button) and a screen reader reads it by the
 * button's text and any other label of the field. The caller shows the chosen file's name.
 * Its styles are in styles.css ('.file-button').
 */
export function FileButton({ inputProps, children, icon }: FileButtonProps) {
  return (
    <label className="button button--secondary file-button">
      <input {...inputProps} type="file" className="visually-hidden" />
      {icon}
      {children}
    </label>
  );
}
