/** The host's device-access button, with the connected viewer's avatar while someone holds access (spec part 2 §2 screen 10). */
import type { ToyAccessRecord } from '../../../common/api/toys';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { ToyIcon } from '../../ui/icons';

export function DeviceAccessButton({ record, onClick }: { record: ToyAccessRecord | null; onClick: () => void }) {
  const holder = record?.access === 'APPROVED' ? record.viewer : null;
  return (
    <Button variant="secondary" onClick={onClick} icon={holder ? <Avatar name={holder.sname} src={holder.avatar} size={22} /> : <ToyIcon size={18} />} aria-label={holder ? `Device access: ${holder.sname}` : 'Device access'}>
      Device access
    </Button>
  );
}

