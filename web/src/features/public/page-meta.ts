import { paths } from "../../../../contract/routes.ts";

export interface PageMeta {
  title: string;
  description: string;
}

/** Titles and descriptions of the public pages: used in the page and in its prerendered <head>. */
export const PUBLIC_PAGE_META = {
  [paths.home]: {
    title: "SqueezeJPEG: compress JPEG images online",
    description:
      "Compress JPEG photos with MozJPEG or jpegli: smaller files at the same visual quality, kept private and deleted automatically. Free for 10 images a day.",
  },
  [paths.about]: {
    title: "About SqueezeJPEG: fast, private JPEG compression",
    description:
      "Why we built SqueezeJPEG, what we value, and how our two JPEG encoders, MozJPEG and jpegli, and measured quality checks keep your photos small and sharp.",
  },
  [paths.privacy]: {
    title: "Privacy Policy | SqueezeJPEG",
    description:
      "What SqueezeJPEG collects, where images are kept and for how long, who we share data with, and how to delete your data.",
  },
  [paths.contact]: {
    title: "Contact SqueezeJPEG support",
    description:
      "Send the SqueezeJPEG team a message. We reply within 24 hours on business days; answers to common questions about security, formats and size limits.",
  },
  [paths.articles]: {
    title: "Image Compression Articles | SqueezeJPEG",
    description:
      "20 practical guides to JPEG compression, image formats, Core Web Vitals and image SEO, for photographers and developers.",
  },
  [paths.developers]: {
    title: "Developer API and CLI | SqueezeJPEG",
    description:
      "Compress JPEGs from your own code: create an API key, send images with curl or the CLI, and look up the settings, response headers, errors and plan limits.",
  },
} satisfies Record<string, PageMeta>;

export const NOT_FOUND_META: PageMeta = {
  title: "404 Page Not Found | SqueezeJPEG",
  description: "The page you are looking for does not exist or has moved.",
};
