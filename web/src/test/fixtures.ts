import type { SiteData } from '../generated/SiteData';

export const site: SiteData = {
  title: 'Calderbrook Academy',
  footerText: 'Small-group beauty and aesthetics training in Manchester.',
  address: '27 Larkspur Row, Manchester, M4 6QT',
  phoneNumber: '0161 496 0742',
  emailAddress: 'hello@example.co.uk',
  supportEmailAddress: 'support@example.co.uk',
  modelsEmailAddress: 'models@example.co.uk',
  socialMedia: { facebook: 'https://facebook.example/c', instagram: 'https://instagram.example/c', youtube: 'https://youtube.example/c', tiktok: 'https://tiktok.example/c' },
  footerLogos: [{ title: 'Guild of Aesthetic Educators', file: { url: '/media/partners/guild.svg' } }],
  footerLinks: { columns: [{ title: 'Courses', links: [{ text: 'Aesthetics', link: '/courses/aesthetics/' }, { text: 'Our clinic', link: 'https://clinic.example' }] }] },
  clinicUrl: 'https://clinic.example',
  logo: { url: '/media/brand/logo.svg', alt: 'Calderbrook Academy', width: 240, height: 64 },
};
