import Link from 'next/link';
import { NotFoundWayBack } from '@/components/not-found-way-back';

export default function NotFound() {
  return (
    <div className="mx-auto mt-16 max-w-md text-center">
      <h1 className="text-2xl font-semibold">404 · Not found</h1>
      <p className="mt-2 text-slate-600">There is nothing here, or nothing you have access to.</p>
      <NotFoundWayBack />
      <Link href="/" className="mt-4 inline-block text-blue-700 hover:underline">Back to the knowledge bases</Link>
    </div>
  );
}
