import { useMutation } from "@tanstack/react-query";
import { restoreJpeg } from "@web-api/endpoints.ts";
import { dispositionName, saveBlob } from "../../../lib/save-file.ts";

/** Restores each .jxl to its original JPEG and saves it under the server's name (`photo.jpg`). */
export async function restoreAndSave(file: File): Promise<string> {
  const res = await restoreJpeg(file);
  const name = dispositionName(res.headers.get("Content-Disposition")) ?? "image.jpg";
  saveBlob(await res.blob(), name);
  return name;
}

export const useRestoreJpeg = () => useMutation({ mutationFn: restoreAndSave });
