export { DevelopersPage } from "./components/developers-page.tsx";
