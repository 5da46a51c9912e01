import type { SVGProps } from "react";

type IconProps = SVGProps<SVGSVGElement>;
const base = { width: 20, height: 20, viewBox: "0 0 24 24", "aria-hidden": true, focusable: false } as const;

export const MenuIcon = (p: IconProps) => (
  <svg {...base} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" {...p}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </svg>
);
export const CloseIcon = (p: IconProps) => (
  <svg {...base} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" {...p}>
    <path d="M6 6l12 12M18 6L6 18" />
  </svg>
);
export const WalletIcon = (p: IconProps) => (
  <svg {...base} fill="none" stroke="currentColor" strokeWidth={2} strokeLinejoin="round" {...p}>
    <path d="M3 7h15a3 3 0 0 1 3 3v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7zm0 0V6a2 2 0 0 1 2-2h11v3M16 14h2" />
  </svg>
);
export const UserIcon = (p: IconProps) => (
  <svg {...base} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" {...p}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c1.5-4 4.5-6 8-6s6.5 2 8 6" />
  </svg>
);
export const ExternalIcon = (p: IconProps) => (
  <svg {...base} width={14} height={14} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" {...p}>
    <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
  </svg>
);
export const CopyIcon = (p: IconProps) => (
  <svg {...base} width={16} height={16} fill="none" stroke="currentColor" strokeWidth={2} {...p}>
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15V5a1 1 0 0 1 1-1h10" />
  </svg>
);
/** Short-message network. */
export const XIcon = (p: IconProps) => (
  <svg {...base} fill="currentColor" {...p}>
    <path d="M4 3h4.6l4.1 5.8L17.6 3H20l-6.2 7.3L21 21h-4.6l-4.5-6.3L6.4 21H4l6.8-7.9L4 3zm3.3 1.6l9.9 14.8h1.4L8.8 4.6H7.3z" />
  </svg>
);
/** Blogging platform. */
export const BlogIcon = (p: IconProps) => (
  <svg {...base} fill="currentColor" {...p}>
    <ellipse cx="7" cy="12" rx="5" ry="5.5" />
    <ellipse cx="16" cy="12" rx="2.5" ry="5.2" />
    <ellipse cx="21" cy="12" rx="1" ry="4.6" />
  </svg>
);
/** Chat community. */
export const ChatIcon = (p: IconProps) => (
  <svg {...base} fill="currentColor" {...p}>
    <path d="M5 4h14a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-6l-5 4v-4H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zm4 6.2a1.4 1.4 0 1 0 0 2.8 1.4 1.4 0 0 0 0-2.8zm6 0a1.4 1.4 0 1 0 0 2.8 1.4 1.4 0 0 0 0-2.8z" />
  </svg>
);
/** Messaging app. */
export const MessageIcon = (p: IconProps) => (
  <svg {...base} fill="currentColor" {...p}>
    <path d="M21.5 3.5L2.8 10.7c-1 .4-1 1.6 0 1.9l4.6 1.5 1.8 5.6c.3.8 1.3 1 1.9.4l2.6-2.5 4.7 3.5c.7.5 1.7.1 1.9-.7L23 4.9c.2-1-.6-1.8-1.5-1.4zM9.6 14.2l8.6-7.6-6.9 9-.4 3-1.3-4.4z" />
  </svg>
);
