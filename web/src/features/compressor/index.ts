// What the signed-in home (app/compressor-page.tsx) composes of the compressor: the upload card, the
// settings (summary and panel), the banner and the phone's action bar, and the settings as sent.
export { InfoBanner } from "./components/info-banner.tsx";
export { PhoneActionBar } from "./components/phone-action-bar.tsx";
export { SettingsSummary } from "./components/settings-summary.tsx";
export { UploadCard } from "./components/upload-card.tsx";
export { sendableSettings } from "./lib/compress-settings.ts";
export { settingsSummary } from "./lib/settings-summary.ts";
export { useCompressSettings } from "./lib/use-compress-settings.ts";
