export { CompressorPage } from "./components/compressor-page.tsx";
