/** The URL of the lean pages' captcha script in the client build (scripts/lib/vite-captcha-script.ts). */
declare module "virtual:hittad/captcha-script" {
  const url: string;
  export default url;
}
