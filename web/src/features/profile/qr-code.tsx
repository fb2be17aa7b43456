import { useEffect, useState, type ReactElement } from 'react';
import { Spinner } from '../../components/spinner';

/**
 * The otpauth URI as a QR code, drawn in the browser: the secret never goes to a QR service. The
 * encoder loads only when someone sets up two-step sign-in.
 */
export function QrCode({ value, label }: { value: string; label: string }): ReactElement {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then(({ toDataURL }) => toDataURL(value, { margin: 1, width: 192, errorCorrectionLevel: 'M' }))
      .then((url) => {
        if (live) setSrc(url);
      });
    return () => {
      live = false;
    };
  }, [value]);
  // White behind the code in dark mode too: scanners need the contrast.
  return (
    <div className="flex size-48 items-center justify-center rounded-lg bg-white p-1">
      {src ? (
        <img src={src} alt={label} width={192} height={192} data-testid="two-step-qr" />
      ) : (
        <Spinner label={label} />
      )}
    </div>
  );
}
