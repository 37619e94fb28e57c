import { type FormEvent, useEffect, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { PASSWORD_RULE, registerSchema, USERNAME_RULE } from "../../../../../contract/accounts.ts";
import { paths, safeReturnPath } from "../../../../../contract/routes.ts";
import { ApiRequestError, messageOf } from "@web-api/client.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { readPendingFileInfo } from "../../../lib/pending-files.ts";
import { useStoreStatements } from "../../../lib/store-kind.ts";
import type { StoreStatements } from "../../../../../contract/storage.ts";
import { useUser } from "../data/get-user.ts";
import { useLogin } from "../data/login.ts";
import { useRegister } from "../data/register.ts";

const MISSING = {
  title: "Missing information",
  description: "Please enter both username and password",
  variant: "destructive",
} as const;

function useReturnPath(): string {
  const search = useSearch();
  return safeReturnPath(new URLSearchParams(search).get("returnUrl")) ?? paths.home;
}

function SignInForm({ onDone }: { onDone: () => void }) {
  const login = useLogin();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!username.trim() || !password) return void toast(MISSING);
    login.mutate({ username, password }, {
      onSuccess: () => {
        toast({ title: "Welcome back!", description: "You have successfully logged in." });
        onDone();
      },
      onError: (err) =>
        toast({
          title: "Login failed",
          description: messageOf(err, "Invalid username or password"),
          variant: "destructive",
        }),
    });
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField
        id="login-username"
        name="username"
        label="Username"
        autoComplete="username"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
      />
      <FormField
        id="login-password"
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Button type="submit" className="w-full" disabled={login.isPending}>
        {login.isPending ? "Signing in..." : "Sign In"}
      </Button>
    </form>
  );
}

type SignUpFields = "firstName" | "lastName" | "username" | "email" | "password";
type FieldErrors = Partial<Record<SignUpFields, string>>;

/** A contract message ("username must be …") as a sentence for the field it is shown under. */
const sentence = (m: string) => m.charAt(0).toUpperCase() + m.slice(1);

/** Field-level messages: empty required fields first, then the shared contract's rules. */
export function signUpErrors(form: Record<SignUpFields, string>): FieldErrors {
  const errors: FieldErrors = {};
  if (!form.username.trim()) errors.username = "Enter a username";
  if (!form.password) errors.password = "Enter a password";
  const parsed = registerSchema.safeParse(form);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as SignUpFields | undefined;
      if (field && !errors[field]) errors[field] = sentence(issue.message);
    }
  }
  return errors;
}

/** The server's refusal, under the field it is about (a taken username), else null. */
function serverFieldError(err: unknown): FieldErrors | null {
  if (!(err instanceof ApiRequestError) || !err.serverMessage) return null;
  const m = err.serverMessage;
  for (const field of ["username", "email", "password", "firstName", "lastName"] as const) {
    if (m.toLowerCase().includes(field.toLowerCase())) return { [field]: sentence(m) };
  }
  return null;
}

function SignUpForm({ onDone }: { onDone: () => void }) {
  const register = useRegister();
  const [form, setForm] = useState({ firstName: "", lastName: "", username: "", email: "", password: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setForm({ ...form, [key]: e.target.value });
    if (errors[key]) setErrors({ ...errors, [key]: undefined });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = signUpErrors(form);
    setErrors(found);
    if (!form.username.trim() || !form.password) return void toast(MISSING);
    if (Object.keys(found).length > 0) return;
    register.mutate(form, {
      onSuccess: () => {
        toast({ title: "Account created!", description: "Welcome to the product! You're now logged in." });
        onDone();
      },
      onError: (err) => {
        const onField = serverFieldError(err);
        if (onField) setErrors(onField);
        toast({
          title: "Registration failed",
          description: messageOf(err, "Username may already exist"),
          variant: "destructive",
        });
      },
    });
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid grid-cols-2 gap-3">
        <FormField
          id="register-first"
          error={errors.firstName}
          name="firstName"
          label="First name"
          autoComplete="given-name"
          value={form.firstName}
          onChange={set("firstName")}
        />
        <FormField
          id="register-last"
          error={errors.lastName}
          name="lastName"
          label="Last name"
          autoComplete="family-name"
          value={form.lastName}
          onChange={set("lastName")}
        />
      </div>
      <FormField
        id="register-username"
        error={errors.username}
        name="username"
        label="Username"
        autoComplete="username"
        hint={USERNAME_RULE}
        value={form.username}
        onChange={set("username")}
      />
      <FormField
        id="register-email"
        error={errors.email}
        name="email"
        type="email"
        label="Email (optional)"
        autoComplete="email"
        value={form.email}
        onChange={set("email")}
      />
      <FormField
        id="register-password"
        error={errors.password}
        name="password"
        type="password"
        label="Password"
        autoComplete="new-password"
        hint={`Password: ${PASSWORD_RULE}`}
        value={form.password}
        onChange={set("password")}
      />
      <Button type="submit" className="w-full" disabled={register.isPending}>
        {register.isPending ? "Creating account..." : "Create Account"}
      </Button>
    </form>
  );
}

const side = (images: StoreStatements) => [
  {
    title: "Lightning Fast",
    text: "MozJPEG and jpegli run on our servers in a pool of workers, so a batch of photos is ready in seconds.",
  },
  {
    title: "Privacy First",
    text: images.short,
  },
  { title: "Free Account", text: "10 compressions a day for free, files up to 10 MB, no card needed." },
];

/** "Your 3 photos are waiting": files picked on the landing page, compressed right after sign-up. */
function WaitingFiles({ count, onSignIn }: { count: number; onSignIn: () => void }) {
  return (
    <div
      role="status"
      data-testid="waiting-files"
      className="mb-4 rounded-lg border border-brand-100 bg-brand-50 p-3 text-sm text-slate-700"
    >
      <p className="font-semibold text-slate-900">Your {count} photo{count === 1 ? " is" : "s are"} waiting</p>
      <p>
        Create a free account and they are compressed right away.{" "}
        <button type="button" className="font-medium text-brand-700 underline" onClick={onSignIn}>
          I already have an account
        </button>
      </p>
    </div>
  );
}

export function AuthPage() {
  const { isAuthenticated } = useUser();
  const [, navigate] = useLocation();
  const returnPath = useReturnPath();
  const done = () => navigate(returnPath, { replace: true });
  // Files picked on the landing page: a new visitor most likely needs an account.
  const [waiting] = useState(() => readPendingFileInfo().length);
  const [tab, setTab] = useState(waiting > 0 ? "signup" : "signin");
  const images = useStoreStatements();

  useEffect(() => {
    if (isAuthenticated) navigate(returnPath, { replace: true });
  }, [isAuthenticated, returnPath, navigate]);

  return (
    <main className="mx-auto grid min-h-screen max-w-5xl items-center gap-10 px-4 py-10 md:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Welcome to SqueezeJPEG</CardTitle>
          <p className="text-sm text-slate-600">Sign in or create a free account to start compressing.</p>
        </CardHeader>
        <CardContent>
          {waiting > 0 && <WaitingFiles count={waiting} onSignIn={() => setTab("signin")} />}
          <Tabs value={tab} onValueChange={setTab}>
            <TabsList className="mb-6">
              <TabsTrigger value="signin">Sign In</TabsTrigger>
              <TabsTrigger value="signup">Sign Up</TabsTrigger>
            </TabsList>
            <TabsContent value="signin">
              <SignInForm onDone={done} />
            </TabsContent>
            <TabsContent value="signup">
              <SignUpForm onDone={done} />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
      <section aria-label="Why sign up" className="space-y-6">
        <h1 className="text-3xl font-bold tracking-tight">Smaller JPEGs, same photo</h1>
        {side(images).map((s) => (
          <div key={s.title}>
            <h2 className="font-semibold">{s.title}</h2>
            <p className="text-slate-600">{s.text}</p>
          </div>
        ))}
      </section>
    </main>
  );
}
