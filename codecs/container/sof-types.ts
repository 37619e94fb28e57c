/** Start-of-frame markers and the kind of JPEG each one starts. */
export type SofType = "baseline" | "extended" | "progressive" | "lossless" | "arithmetic" | "hierarchical";

export const SOF_TYPES: Readonly<Record<number, SofType>> = {
  0xc0: "baseline",
  0xc1: "extended",
  0xc2: "progressive",
  0xc3: "lossless",
  0xc5: "hierarchical",
  0xc6: "hierarchical",
  0xc7: "hierarchical",
  0xc9: "arithmetic",
  0xca: "arithmetic",
  0xcb: "arithmetic",
  0xcd: "hierarchical",
  0xce: "hierarchical",
  0xcf: "hierarchical",
};
