/**
 * Small stroke icons drawn for the vault, decorative (hidden from assistive technology), in two
 * modules so the first download carries only the shell's: the shell (header, navigation, notes,
 * boot screen) imports './icons/shell.tsx' directly, everything else imports from here.
 */
export {
  VaultMark,
  DashboardIcon,
  ActivityIcon,
  CellarIcon,
  WhiskeyIcon,
  WineIcon,
  BeerIcon,
  FollowingIcon,
  AdminIcon,
  BellIcon,
  ChevronDownIcon,
  CloseIcon,
} from './icons/shell.tsx';
export {
  KeyIcon,
  ArrowLeftIcon,
  ArrowRightIcon,
  SearchIcon,
  EditIcon,
  TrashIcon,
  CheckIcon,
  ClockIcon,
  CameraIcon,
  CloudUpIcon,
  LockIcon,
  UserPlusIcon,
  UsersIcon,
  PhoneIcon,
  ProfileIcon,
  CalendarIcon,
  GlobeIcon,
  StarIcon,
} from './icons/features.tsx';
