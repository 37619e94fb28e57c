import { type FormEvent, useEffect, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { PASSWORD_RULE, USERNAME_RULE } from "../../../../../contract/accounts.ts";
import { paths, safeReturnPath } from "../../../../../contract/routes.ts";
import { messageOf } from "../../../api/client.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { useUser } from "../api/get-user.ts";
import { useLogin } from "../api/login.ts";
import { useRegister } from "../api/register.ts";

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

function SignUpForm({ onDone }: { onDone: () => void }) {
  const register = useRegister();
  const [form, setForm] = useState({ firstName: "", lastName: "", username: "", email: "", password: "" });
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setForm({ ...form, [key]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.username.trim() || !form.password) return void toast(MISSING);
    register.mutate(form, {
      onSuccess: () => {
        toast({ title: "Account created!", description: "Welcome to the product! You're now logged in." });
        onDone();
      },
      onError: (err) =>
        toast({
          title: "Registration failed",
          description: messageOf(err, "Username may already exist"),
          variant: "destructive",
        }),
    });
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid grid-cols-2 gap-3">
        <FormField
          id="register-first"
          name="firstName"
          label="First name"
          autoComplete="given-name"
          value={form.firstName}
          onChange={set("firstName")}
        />
        <FormField
          id="register-last"
          name="lastName"
          label="Last name"
          autoComplete="family-name"
          value={form.lastName}
          onChange={set("lastName")}
        />
      </div>
      <FormField
        id="register-username"
        name="username"
        label="Username"
        autoComplete="username"
        hint={USERNAME_RULE}
        value={form.username}
        onChange={set("username")}
      />
      <FormField
        id="register-email"
        name="email"
        type="email"
        label="Email (optional)"
        autoComplete="email"
        value={form.email}
        onChange={set("email")}
      />
      <FormField
        id="register-password"
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

const SIDE = [
  {
    title: "Lightning Fast",
    text: "MozJPEG runs on our servers in a pool of workers, so a batch of photos is ready in seconds.",
  },
  {
    title: "Privacy First",
    text: "Images are processed in memory only and deleted automatically; nothing is written to disk.",
  },
  { title: "Free Account", text: "10 compressions a day for free, files up to 10 MB, no card needed." },
];

export function AuthPage() {
  const { isAuthenticated } = useUser();
  const [, navigate] = useLocation();
  const returnPath = useReturnPath();
  const done = () => navigate(returnPath, { replace: true });

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
          <Tabs defaultValue="signin">
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
        {SIDE.map((s) => (
          <div key={s.title}>
            <h2 className="font-semibold">{s.title}</h2>
            <p className="text-slate-600">{s.text}</p>
          </div>
        ))}
      </section>
    </main>
  );
}
