import type { Image as ImageData } from '../../generated/Image';

// The widths the image endpoint makes (/_next/image/, quality 75; docs/product.md#pages).
const WIDTHS = [16, 32, 48, 64, 96, 128, 256, 384, 640, 750, 828, 1080, 1200, 1920, 2048, 3840];
const QUALITY = 75;

export function imageUrl(src: string, width: number): string {
  return `/_next/image/?url=${encodeURIComponent(src)}&w=${width}&q=${QUALITY}`;
}

/** Widths worth offering for an image shown at most `maxDisplay` CSS pixels wide on up to 2x screens. */
export function candidateWidths(maxDisplay: number): number[] {
  const largest = WIDTHS.find((w) => w >= maxDisplay * 2) ?? WIDTHS[WIDTHS.length - 1]!;
  return WIDTHS.filter((w) => w >= Math.min(maxDisplay / 2, 640) && w <= largest);
}

interface Props {
  image: ImageData;
  /** The `sizes` attribute: how wide the image shows at each viewport. */
  sizes: string;
  /** The widest the image is ever shown, in CSS pixels. */
  maxDisplay: number;
  /** The first image above the fold loads at once; every other one lazily. */
  priority?: boolean;
  className?: string;
  /** Decorative images (beside a text that says the same) have empty alt. */
  decorative?: boolean;
}

export function Picture({ image, sizes, maxDisplay, priority = false, className, decorative = false }: Props) {
  const widths = candidateWidths(maxDisplay);
  return (
    <img
      className={className}
      src={imageUrl(image.url, widths[widths.length - 1]!)}
      srcSet={widths.map((w) => `${imageUrl(image.url, w)} ${w}w`).join(', ')}
      sizes={sizes}
      width={image.width}
      height={image.height}
      alt={decorative ? '' : image.alt}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
    />
  );
}
