// Inline icons; each is decorative and takes its name from the control around it.
interface IconProps {
  className?: string;
}

function Svg({ className, children }: IconProps & { children: React.ReactNode }) {
  return (
    <svg className={className ?? 'icon'} viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export const BasketIcon = (p: IconProps) => (
  <Svg {...p}><path d="M6 7h12l-1.2 11.1a2 2 0 0 1-2 1.9H9.2a2 2 0 0 1-2-1.9zM9 7V6a3 3 0 0 1 6 0v1" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" /></Svg>
);
export const AccountIcon = (p: IconProps) => (
  <Svg {...p}><circle cx="12" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="1.8" /><path d="M4 21c1.5-4 4.5-6 8-6s6.5 2 8 6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /></Svg>
);
export const PhoneIcon = (p: IconProps) => (
  <Svg {...p}><path d="M6.6 3.5 9 3l1.6 4-2 1.4a11 11 0 0 0 5.9 6l1.5-2 4 1.6-.5 2.4A2 2 0 0 1 17.6 18 14.5 14.5 0 0 1 5 5.4a2 2 0 0 1 1.6-1.9z" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" /></Svg>
);
export const SearchIcon = (p: IconProps) => (
  <Svg {...p}><circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.8" /><path d="m15.5 15.5 5 5" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /></Svg>
);
export const MenuIcon = (p: IconProps) => (
  <Svg {...p}><path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /></Svg>
);
export const CloseIcon = (p: IconProps) => (
  <Svg {...p}><path d="m6 6 12 12M18 6 6 18" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /></Svg>
);
export const ChevronIcon = (p: IconProps) => (
  <Svg {...p}><path d="m7 10 5 5 5-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" /></Svg>
);
export const FacebookIcon = (p: IconProps) => (
  <Svg {...p}><path d="M14 8h3V4h-3a4 4 0 0 0-4 4v2H7v4h3v7h4v-7h3l1-4h-4V8z" fill="currentColor" /></Svg>
);
export const InstagramIcon = (p: IconProps) => (
  <Svg {...p}><rect x="3.5" y="3.5" width="17" height="17" rx="5" fill="none" stroke="currentColor" strokeWidth="1.8" /><circle cx="12" cy="12" r="4" fill="none" stroke="currentColor" strokeWidth="1.8" /><circle cx="17.3" cy="6.7" r="1.1" fill="currentColor" /></Svg>
);
export const YouTubeIcon = (p: IconProps) => (
  <Svg {...p}><rect x="2.5" y="5.5" width="19" height="13" rx="4" fill="none" stroke="currentColor" strokeWidth="1.8" /><path d="m10 9 5 3-5 3z" fill="currentColor" /></Svg>
);
export const TikTokIcon = (p: IconProps) => (
  <Svg {...p}><path d="M14 3v11.5a3.5 3.5 0 1 1-3.5-3.5M14 3c.5 2.8 2.3 4.5 5 4.7" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /></Svg>
);
