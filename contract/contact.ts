/** The contact form's fields and limits (spec §3, §5), shared by the form and POST /api/contact. */
export interface ContactInput {
  name: string;
  email: string;
  subject: string;
  message: string;
  /** The honeypot: hidden from people, filled in by bots. Must be empty. */
  website?: string;
}

export const CONTACT_LIMITS = {
  name: 100,
  email: 254,
  subject: 200,
  message: 5000,
} as const;

/** Messages one IP address may send per hour. */
export const CONTACT_PER_HOUR = 5;

export const CONTACT_SUCCESS = {
  title: "Message sent successfully!",
  description: "We'll get back to you within 24 hours.",
} as const;
