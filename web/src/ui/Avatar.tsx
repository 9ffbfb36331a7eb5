import type { User } from '../api/types.ts';

/** Initials of a name: 'Ada Lovelace' → 'AL'. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words.at(-1)] : [words[0]?.slice(0, 2)];
  return letters
    .map((word) => word?.[0] ?? '')
    .join('')
    .toUpperCase();
}

/** The user's avatar image (served at '/' + avatarPath), or their initials. Decorative. */
export function Avatar({
  user,
  size = 'small',
}: {
  user: Pick<User, 'fullName' | 'username' | 'avatarPath'>;
  size?: 'small' | 'large';
}) {
  const className = `avatar avatar--${size}`;
  if (user.avatarPath) {
    return <img className={className} src={`/${user.avatarPath}`} alt="" />;
  }
  return (
    <span className={className} aria-hidden="true">
      {initialsOf(user.fullName || user.username)}
    </span>
  );
}
