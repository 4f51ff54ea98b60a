import type { MetadataRoute } from 'next';

/** The web app manifest (/manifest.webmanifest), for "add to home screen"; icons drawn by scripts/make-icons.mts. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: 'SKB Studio',
    short_name: 'SKB Studio',
    description: 'Explore semi-structured knowledge bases and build retrieval benchmarks on them.',
    start_url: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#1d4ed8',
    icons: [
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
    ],
  };
}
