import type { VaultNotification } from '../../contract/social.ts';
import type { NotificationView } from './repository.ts';

export function presentNotification(n: NotificationView): VaultNotification {
  return {
    id: n.id,
    type: n.type,
    status: n.status,
    sender: {
      fullName: n.senderName,
      username: n.senderUsername,
      following: n.followOfSender === 'ACCEPTED',
      requested: n.followOfSender === 'PENDING',
    },
    beverage: n.beverage,
    payload: {
      ...(n.message !== null && { message: n.message }),
      ...(n.url !== null && { url: n.url }),
    },
    createdAt: n.createdAt.toISOString(),
  };
}
