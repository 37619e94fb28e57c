import { type FormEvent, useState } from "react";
import { CONTACT_LIMITS, CONTACT_SUCCESS, type ContactInput } from "../../../../../contract/contact.ts";
import { messageOf } from "@web-api/client.ts";
import { Button } from "../../../components/ui/button.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { Label } from "../../../components/ui/label.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { useSendContactMessage } from "../data/send-contact.ts";

type Field = "name" | "email" | "subject" | "message";
type Errors = Partial<Record<Field, string>>;

const EMPTY: ContactInput = { name: "", email: "", subject: "", message: "", website: "" };
const LABELS: Record<Field, string> = { name: "Name", email: "Email", subject: "Subject", message: "Message" };

/** Spec §5: all four fields required, the email well-formed. The server checks the same again. */
export function validateContact(input: ContactInput): Errors {
  const errors: Errors = {};
  for (const field of ["name", "email", "subject", "message"] as const) {
    const value = input[field].trim();
    if (!value) errors[field] = `${LABELS[field]} is required`;
    else if (value.length > CONTACT_LIMITS[field]) {
      errors[field] = `${LABELS[field]} must be at most ${CONTACT_LIMITS[field]} characters`;
    }
  }
  if (!errors.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email.trim())) {
    errors.email = "Enter a valid email address";
  }
  return errors;
}

export function ContactForm() {
  const send = useSendContactMessage();
  const [values, setValues] = useState<ContactInput>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});

  const set = (field: keyof ContactInput) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    if (field in errors) setErrors((old) => ({ ...old, [field]: undefined }));
  };

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const found = validateContact(values);
    setErrors(found);
    const first = (Object.keys(found) as Field[])[0];
    if (first) {
      e.currentTarget.querySelector<HTMLElement>(`#contact-${first}`)?.focus();
      return;
    }
    send.mutate(values, {
      onSuccess: () => {
        toast(CONTACT_SUCCESS);
        setValues(EMPTY);
      },
      onError: (err) =>
        toast({
          title: "Message not sent",
          description: messageOf(err, "Something went wrong; please try again"),
          variant: "destructive",
        }),
    });
  };

  const describedBy = (field: Field) => (errors[field] ? `contact-${field}-error` : undefined);
  const error = (field: Field) =>
    errors[field] && (
      <p id={`contact-${field}-error`} className="text-sm text-red-700">
        {errors[field]}
      </p>
    );

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Contact form">
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField
          id="contact-name"
          name="name"
          label="Name"
          autoComplete="name"
          required
          maxLength={CONTACT_LIMITS.name}
          value={values.name}
          onChange={set("name")}
          error={errors.name}
        />
        <FormField
          id="contact-email"
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          maxLength={CONTACT_LIMITS.email}
          value={values.email}
          onChange={set("email")}
          error={errors.email}
        />
      </div>
      <FormField
        id="contact-subject"
        name="subject"
        label="Subject"
        required
        maxLength={CONTACT_LIMITS.subject}
        value={values.subject}
        onChange={set("subject")}
        error={errors.subject}
      />
      <div className="space-y-1.5">
        <Label htmlFor="contact-message">Message</Label>
        <textarea
          id="contact-message"
          name="message"
          required
          rows={6}
          maxLength={CONTACT_LIMITS.message}
          value={values.message}
          onChange={set("message")}
          aria-invalid={Boolean(errors.message)}
          aria-describedby={describedBy("message")}
          className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
        />
        {error("message")}
      </div>
      {/* Honeypot: off-screen and skipped by keyboards and screen readers; only bots fill it in. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor="contact-website">Website</label>
        <input
          id="contact-website"
          name="website"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={values.website}
          onChange={set("website")}
        />
      </div>
      <Button type="submit" size="lg" disabled={send.isPending}>
        {send.isPending ? "Sending..." : "Send Message"}
      </Button>
    </form>
  );
}
