import type { BeverageType } from '../api/types.ts';
import { BeerIcon, WhiskeyIcon, WineIcon } from '../ui/icons.tsx';

/** The icon of a type of entry (decorative). */
export function TypeIcon({ type }: { type: BeverageType }) {
  switch (type) {
    case 'WHISKEY':
      return <WhiskeyIcon />;
    case 'WINE':
      return <WineIcon />;
    case 'BEER':
      return <BeerIcon />;
  }
}
