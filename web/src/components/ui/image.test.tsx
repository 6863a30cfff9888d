import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { candidateWidths, imageUrl, Picture } from './image';

const image = { url: '/media/courses/bb-glow.svg', alt: 'Glowing circle', width: 1200, height: 800 };

describe('Picture', () => {
  it('offers the endpoint widths that fit the display size', () => {
    expect(candidateWidths(400)).toEqual([256, 384, 640, 750, 828]);
    expect(candidateWidths(1200)).toEqual([640, 750, 828, 1080, 1200, 1920, 2048, 3840]);
  });

  it('loads lazily with width, height, srcset and sizes from the image endpoint', () => {
    render(<Picture image={image} sizes="(min-width: 60rem) 25vw, 100vw" maxDisplay={400} />);
    const img = screen.getByRole('img', { name: 'Glowing circle' });
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('width')).toBe('1200');
    expect(img.getAttribute('height')).toBe('800');
    expect(img.getAttribute('sizes')).toBe('(min-width: 60rem) 25vw, 100vw');
    expect(img.getAttribute('srcset')).toContain(`${imageUrl(image.url, 640)} 640w`);
    expect(imageUrl(image.url, 640)).toBe('/_next/image/?url=%2Fmedia%2Fcourses%2Fbb-glow.svg&w=640&q=75');
  });

  it('loads the first image above the fold eagerly', () => {
    render(<Picture image={image} sizes="100vw" maxDisplay={1200} priority />);
    expect(screen.getByRole('img').getAttribute('loading')).toBe('eager');
    expect(screen.getByRole('img').getAttribute('fetchpriority')).toBe('high');
  });
});
