import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        space: { 950: "#070a16", 900: "#0d1226", 800: "#151b36", 700: "#212a4d", 600: "#33406e" },
        spark: { 300: "#ffd27a", 400: "#ffbf3f", 500: "#f5a524", 600: "#d4860c" },
        nebula: { 300: "#a9b8ff", 400: "#7f93ff", 500: "#5b6cf0" },
      },
      fontFamily: { sans: ["system-ui", "-apple-system", "Segoe UI", "Roboto", "sans-serif"] },
    },
  },
  plugins: [],
} satisfies Config;
