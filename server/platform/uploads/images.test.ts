import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { pngClaiming } from '../../testing/images';
import { ImageRefused, inspectImage, MAX_IMAGE_PIXELS, renderImage } from './images';

const photo = (options: { width: number; height: number }) =>
  sharp({ create: { width: options.width, height: options.height, channels: 3, background: { r: 200, g: 120, b: 40 } } });


describe('uploaded images', () => {
  it('reads the type from the bytes, whatever the file claims to be', async () => {
    const jpeg = await photo({ width: 64, height: 48 }).jpeg().toBuffer();
    await expect(inspectImage(jpeg)).resolves.toEqual({ format: 'jpeg', width: 64, height: 48 });
    await expect(inspectImage(Buffer.from('%PDF-1.7 not a picture at all'))).rejects.toThrow(new ImageRefused(MSG.notAnImage));
    await expect(inspectImage(Buffer.alloc(0))).rejects.toThrow(ImageRefused);
  });

  it('refuses a small file that would decode to a huge bitmap, before decoding it', async () => {
    const bomb = pngClaiming(20_000, 20_000);
    expect(bomb.length).toBeLessThan(2000);
    await expect(inspectImage(bomb)).rejects.toThrow(`at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`);
  });

  it('renders upright WebP sizes without the camera metadata', async () => {
    // A 300 × 200 picture taken on its side (orientation 6), with a GPS position in its EXIF.
    const camera = await photo({ width: 300, height: 200 })
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'Camera' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .jpeg().toBuffer();
    expect((await sharp(camera).metadata()).exif).toBeDefined();
    await expect(inspectImage(camera)).resolves.toMatchObject({ width: 200, height: 300 });

    const full = await renderImage(camera, 'full');
    const meta = await sharp(full.data).metadata();
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([200, 300]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();

    const tile = await renderImage(await photo({ width: 2000, height: 1000 }).png().toBuffer(), 'tile');
    expect([tile.width, tile.height]).toEqual([480, 240]);
  });
});
